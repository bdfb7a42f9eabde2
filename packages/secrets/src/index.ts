export * from './secret-box.ts';
export * from './generate.ts';
export * from './timestamped-hmac.ts';
