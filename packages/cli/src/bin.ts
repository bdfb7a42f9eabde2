#!/usr/bin/env node
// The evds command line. Commands set process.exitCode themselves (context.ts); here commander's own
// outcomes are mapped: --help exits 0, any usage mistake 2.
import { CommanderError } from 'commander';
import { EXIT_USAGE } from './errors.ts';
import { createProgram } from './program.ts';

// `evds events list | head`: a reader that stops early is no error, so the command just ends.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

try {
  await createProgram().parseAsync(process.argv);
} catch (err) {
  if (!(err instanceof CommanderError)) throw err;
  process.exitCode = err.exitCode === 0 ? 0 : EXIT_USAGE;
}
