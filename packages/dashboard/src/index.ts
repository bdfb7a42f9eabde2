export * from './api-client.ts';
export * from './app.ts';
export * from './cookie.ts';
export * from './errors.ts';
export * from './headers.ts';
export * from './inbox.ts';
