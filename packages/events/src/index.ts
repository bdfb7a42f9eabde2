export * from './routes.ts';
export * from './recover-routes.ts';
export * from './views.ts';
export * from './gates.ts';
