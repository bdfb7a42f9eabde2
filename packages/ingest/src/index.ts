export * from './accept.ts';
export * from './inbound-signature.ts';
export * from './routes.ts';
export * from './group-commit.ts';
export * from './lookup-cache.ts';
