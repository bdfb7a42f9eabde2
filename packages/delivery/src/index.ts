export * from './maintenance.ts';
export * from './process.ts';
export * from './send.ts';
export * from './sign.ts';
export * from './sweeper.ts';
export * from './webhook.ts';
export * from './consumer.ts';
