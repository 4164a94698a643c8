export * from './sources';
export * from './runs';
export * from './traces';
export * from './plan-cache';
export * from './observations';
export * from './embeddings';
export * from './graph';
export * from './knowledge';
