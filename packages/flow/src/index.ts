export * from './keys.ts';
export * from './circuit.ts';
export * from './gate.ts';
