export * from './sources';
export * from './runs';
export * from './traces';
export * from './plan-cache';
export * from './observations';
export * from './embeddings';
