export * from './registry.ts';
export * from './http.ts';
export * from './ingest.ts';
export * from './delivery.ts';
export * from './gauges.ts';
export * from './server.ts';
export * from './flow.ts';
