export * from './auth-routes.ts';
export * from './key-routes.ts';
export * from './org-routes.ts';
export * from './passwords.ts';
export * from './provision.ts';
export * from './views.ts';
