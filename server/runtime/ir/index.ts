export * from './graph';
export * from './validate-graph';
export * from './serialize-graph';
export * from './plan-hash';
export * from './node-outputs';
