export * from './lifecycle.ts';
export * from './logger.ts';
export * from './batcher.ts';
export * from './backing.ts';
export * from './grouped.ts';
