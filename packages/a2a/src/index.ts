export * from './card.ts';
export * from './discover.ts';
export * from './fetch-card.ts';
export * from './refresh.ts';
export * from './sender.ts';
