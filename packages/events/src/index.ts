export * from './routes.ts';
export * from './recover-routes.ts';
export * from './views.ts';
export * from './gates.ts';
export * from './test-route.ts';
export * from './timeseries-route.ts';
