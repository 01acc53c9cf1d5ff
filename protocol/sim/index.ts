export * from './models.js';
export * from './operations.js';
export { SIM_RESOURCE } from './resource.js';
export * from './endpoint-models.js';
export * from './endpoint-operations.js';
export * from './clock-operations.js';
export * from './heard.js';
export * from './fault-operations.js';
export * from './tap.js';
