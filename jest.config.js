// Every *.test.ts in the workspace; each file gets its own database and Redis prefix (packages/testkit),
// so files run in parallel against the same Postgres and Redis servers.
export default {
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/packages/*/src/**/*.test.ts',
    '<rootDir>/services/*/src/**/*.test.ts',
    '<rootDir>/tests/**/*.test.ts',
  ],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } },
    ],
  },
  globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
  globalTeardown: '<rootDir>/packages/testkit/src/global-teardown.ts',
  // A guard against a hang, not a measure of speed: the tests that bound a time assert it themselves.
  // Suites that restart services or spawn commands took 30-50 s on a loaded 2-core CI machine.
  testTimeout: 90_000,
  maxWorkers: 2,
};
