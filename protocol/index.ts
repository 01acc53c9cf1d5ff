export * from './model.js';
export * from './operation.js';
export * as ari from './ari/index.js';
export * as sim from './sim/index.js';
