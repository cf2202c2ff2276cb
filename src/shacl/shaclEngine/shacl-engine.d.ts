// Types of the public modules of shacl-engine that src/shacl/shaclEngine/shaclEngine.ts imports (shacl-engine has none of
// its own). Only that module imports shacl-engine; the types themselves are declared there, so that
// the published declarations never name shacl-engine (bundled into dist/, not a dependency).
declare module 'shacl-engine' {
  export const Validator: import('./shaclEngine.js').ValidatorClass;
}

declare module 'shacl-engine/sparql.js' {
  import type { SparqlPlugin } from './shaclEngine.js';
  export const validations: SparqlPlugin['validations'];
  export const targetResolvers: SparqlPlugin['targetResolvers'];
}
