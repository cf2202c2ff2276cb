/**
 * shacl-engine as the toolkit uses it, through its public API only (the package's `Validator`, and its SPARQL
 * plugin `shacl-engine/sparql.js`): the only module that imports it, with the types of the parts used
 * (shacl-engine has none of its own). The toolkit validates SHACL Core with its own engine (`engine/`); shapes
 * that engine does not run (SHACL-SPARQL with no native implementation, SPARQL targets) go to shacl-engine,
 * whole record by whole record ({@link WholeRecordEngine}).
 *
 * In the published package this module is a bundle (`npm run build`, scripts/bundleShaclEngine.mjs):
 * shacl-engine and its dependencies are inside it, except Comunica, which only its SPARQL plugin needs; the
 * plugin ({@link importSparqlPlugin}) is a chunk loaded on demand that imports Comunica, an optional peer
 * dependency. So this module must import nothing of the toolkit's own (a bundled copy would be a second one),
 * and its declarations name no module but `@rdfjs/types`.
 */
import type * as RDF from '@rdfjs/types';
import { Validator as EngineValidator } from 'shacl-engine';

/** A validation plugin of shacl-engine (an entry of its `validations` option), opaque to the toolkit. */
export type CompileValidation = (shape: never) => unknown;

/** Options of shacl-engine's `Validator` (its README). */
export interface ValidatorOptions {
  /** A data factory with `dataset()`: the report graph is built with it. */
  factory: RDF.DataFactory & { dataset(quads?: RDF.Quad[]): RDF.DatasetCore };
  validations?: Map<RDF.Term, CompileValidation>;
  targetResolvers?: Map<RDF.Term, unknown>;
}

/** A shacl-engine validation report: `sh:conforms`, and the report graph. */
export interface EngineReport {
  readonly conforms: boolean;
  /** The report graph (`sh:ValidationReport`, its `sh:result`s). */
  readonly dataset: RDF.DatasetCore;
}

/** shacl-engine's validator for one shapes graph. */
export interface Validator {
  validate(
    data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> },
    shapes?: { terms: RDF.Term[] }[],
  ): Promise<EngineReport>;
}

/** The `Validator` class of shacl-engine. */
export interface ValidatorClass {
  new (shapes: RDF.DatasetCore, options: ValidatorOptions): Validator;
}

/** shacl-engine's SPARQL plugin (`shacl-engine/sparql.js`): the `sh:sparql` validation and the SPARQL target resolver. */
export interface SparqlPlugin {
  validations: Map<RDF.Term, CompileValidation>;
  targetResolvers: Map<RDF.Term, unknown>;
}

/** shacl-engine's `Validator`. */
export const Validator: ValidatorClass = EngineValidator;

/**
 * Imports shacl-engine's SPARQL plugin, and with it Comunica (an optional peer
 * dependency of the package): rejects with `ERR_MODULE_NOT_FOUND` when Comunica
 * is not installed (see loadSparqlPlugin.ts for the error a person reads).
 */
export function importSparqlPlugin(): Promise<SparqlPlugin> {
  return import('shacl-engine/sparql.js');
}
