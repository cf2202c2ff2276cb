// Public library surface: named re-exports only.
export * from './errors.js';
export * from './record/types.js';
export * from './serialize/QuadSerializer.js';
export * from './vocabulary/negotiate.js';
