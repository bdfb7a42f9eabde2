export * from './ids.ts';
export * from './errors.ts';
export * from './states.ts';
export * from './billing.ts';
export * from './time.ts';
