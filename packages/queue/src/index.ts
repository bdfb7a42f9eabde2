export * from './catalog.ts';
export * from './producer.ts';
export * from './redis.ts';
export * from './worker.ts';
export * from './stats.ts';
export * from './layout.ts';
