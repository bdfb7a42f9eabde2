export * from './a2a-routes.ts';
export * from './endpoint-routes.ts';
export * from './inputs.ts';
export * from './signing-secret-routes.ts';
export * from './target-routes.ts';
export * from './views.ts';
export * from './health.ts';
export * from './reseal.ts';
export { targetListQuery } from './target-paging.ts';
