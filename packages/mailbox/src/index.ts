export * from './routes.ts';
export * from './views.ts';
