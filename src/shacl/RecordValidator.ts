import type * as RDF from '@rdfjs/types';
import { parseRecordText } from '../group/RecordText.js';
import type { RecordText } from '../group/RecordText.js';
import { parseSimpleNTriples } from '../group/parseSimpleNTriples.js';
import { loadShapes } from './loadShapes.js';
import type { ShapesGraph } from './loadShapes.js';
import type { ShapesScope } from './scope/analyseShapes.js';
import { prepareEngine, type PreparedEngine } from './prepareEngine.js';
import { CopiesTold, forgetRecordTerms, recordScopeOf } from './scope/recordScope.js';
import { TermInterner } from './engine/TermInterner.js';
import { distinctRecord, type RecordTriples } from './engine/RecordIndex.js';
import { decodeRecords, type EncodedRecords } from './reports/termCodec.js';
import { outcomeOf, type ValidationOutcome, type ValidationResult } from './reports/ValidationResult.js';

export { compactIri, pathToString } from './reports/ValidationResult.js';
export type { PathStep, Severity, ValidationOutcome, ValidationResult } from './reports/ValidationResult.js';

/** Options of {@link RecordValidator.create}. */
export interface RecordValidatorOptions {
  /** Shapes already loaded. Defaults to {@link loadShapes} of `shapesDir`. */
  shapes?: ShapesGraph;
  /** Directory (or file) of Turtle shapes. Defaults to the shipped `shapes/`. */
  shapesDir?: string;
  /**
   * The schema.org namespace of the data: `https` validates dumps written with
   * `--schema-https` against shapes written for `http://schema.org/` (the shapes'
   * schema.org IRIs are rewritten when loaded). Defaults to `http`.
   */
  schemaScheme?: 'http' | 'https';
  /**
   * How `sh:sparql` constraints run: `native` runs the JavaScript equivalents of
   * the shipped constraints (and shacl-engine's SPARQL engine for any other);
   * `engine` runs every one through shacl-engine's SPARQL plugin (Comunica:
   * correct, slow). Defaults to `native`.
   */
  sparql?: 'native' | 'engine';
  /**
   * Check that each record holds what the shapes read (no node of another record, no shared node without its
   * triples...) and fingerprint its shared nodes ({@link recordScopeOf}): each outcome's `scope` says what a
   * record alone may have got wrong against SHACL on the whole graph, for `ScopeCheck` to add up (a shared node's
   * copy is told once, and again only when it changes: use a validator for one run). Defaults to false.
   */
  checkScope?: boolean;
  /** Triples of the data graph that say what is a class (`rdfs:subClassOf`, a shape's `rdf:type`), read with the shapes. Defaults to none. */
  dataClassTriples?: readonly RDF.Quad[];
}

/**
 * Validates the quads of one record at a time against SHACL shapes: with the SHACL Core engine of our own
 * (`engine/`), or, for shapes it does not run, shacl-engine (`WholeRecordEngine`). Build once ({@link RecordValidator.create}), call
 * {@link RecordValidator.validateRecord} per record: memory is that of one
 * record. Quads are validated whatever their graph.
 */
export class RecordValidator {
  /** The interner of the shapes' terms (a record's terms are interned through a child of it). */
  private readonly interner: TermInterner;

  private constructor(
    private readonly engine: PreparedEngine,
    /** The shapes in use. */
    readonly shapes: ShapesGraph,
    private readonly checkScope: boolean,
  ) {
    this.interner = engine.core?.interner ?? new TermInterner();
  }

  /** The copies of shared nodes this validator has told of: each is told once, and again only when it changes. */
  private copies = new CopiesTold();

  /**
   * Forgets the copies of shared nodes told so far: the next outcomes tell them again. For a worker that validates
   * pieces of a dump apart (and not in order): a `CopiesTold` in the reading thread filters the outcomes of all
   * the pieces in input order, which tells what one validator for the whole run would have told.
   */
  forgetCopies(): void {
    this.copies = new CopiesTold();
  }

  /** Loads the shapes and prepares the engine. */
  static async create(options: RecordValidatorOptions = {}): Promise<RecordValidator> {
    const shapes = options.shapes ?? (await loadShapes(options.shapesDir, { schemaScheme: options.schemaScheme }));
    const engine = await prepareEngine(shapes, {
      sparql: options.sparql ?? 'native',
      ...(options.dataClassTriples ? { dataClassTriples: options.dataClassTriples } : {}),
    });
    return new RecordValidator(engine, shapes, options.checkScope ?? false);
  }

  /** What the shapes read around a focus node: whether validating record by record is exact ({@link analyseShapes}). */
  get scope(): ShapesScope {
    return this.engine.scope;
  }

  /** Validates one group of quads (one record: its work and the nodes it owns). */
  async validateRecord(quads: Iterable<RDF.Quad>): Promise<ValidationOutcome> {
    return (await this.validateRecords([quads]))[0]!;
  }

  /** Validates several records: the same outcomes as {@link validateRecord} on each, in order. */
  async validateRecords(records: readonly Iterable<RDF.Quad>[]): Promise<ValidationOutcome[]> {
    const interner = this.batchInterner();
    return this.validateTriples(records.map((quads) => distinctRecord(quads, (q) => interner.quad(q))));
  }

  /**
   * Validates records sent as {@link EncodedRecords} (by a thread that validates in workers): the outcomes of
   * {@link validateRecords} on their quads, whose terms are made interned (no copy of other terms).
   */
  async validateEncoded(encoded: EncodedRecords): Promise<ValidationOutcome[]> {
    const records = decodeRecords(encoded, this.batchInterner().factory());
    return this.validateTriples(records.map((quads) => distinctRecord(quads)));
  }

  /**
   * Parses and validates records given as N-Triples or N-Quads lines
   * ({@link RecordText}): the outcomes of {@link validateRecords} on their
   * quads. A syntax error throws a `ParseError` naming the input line. Plain
   * lines are read by {@link parseSimpleNTriples}, others by n3; both make
   * interned terms directly (no copy of their own terms).
   */
  async validateTexts(records: readonly RecordText[]): Promise<ValidationOutcome[]> {
    const factory = this.batchInterner().factory();
    const parse = (record: RecordText) =>
      distinctRecord(
        parseSimpleNTriples(record.lineTexts ?? record.text, record.format, factory) ??
          parseRecordText(record, factory),
      );
    const core = this.engine.core;
    if (!core) return this.validateTriples(records.map(parse));
    // Each record parsed and validated in turn: its quads die young (the garbage collector copies fewer). A syntax
    // error throws as if no record had been validated: the copies of shared nodes told since are forgotten again.
    const outcomes: ValidationOutcome[] = [];
    const journal = this.checkScope ? this.copies.journal() : undefined;
    try {
      for (const record of records) {
        const parsed = parse(record);
        outcomes.push(this.withScope(parsed, core.validateTriples(parsed.triples, parsed.pairs)));
      }
    } catch (err) {
      journal?.rollback();
      throw err;
    } finally {
      journal?.close();
    }
    return outcomes;
  }

  /**
   * The interner of a batch of records (a child of the shapes' one): their terms are of it, and the terms of the
   * batches before, which do not come back, are forgotten by the scope check.
   */
  private batchInterner(): TermInterner {
    if (this.checkScope) forgetRecordTerms(this.engine.rules);
    return new TermInterner(this.interner);
  }

  /** Validates the distinct interned triples of each record, one record at a time. */
  private async validateTriples(records: readonly RecordTriples[]): Promise<ValidationOutcome[]> {
    const outcomes: ValidationOutcome[] = [];
    for (const record of records) outcomes.push(this.withScope(record, await this.runEngine(record)));
    return outcomes;
  }

  /** The outcome of a record's results, with its scope when asked for ({@link recordScopeOf}). */
  private withScope(record: RecordTriples, results: ValidationResult[]): ValidationOutcome {
    const outcome = outcomeOf(results);
    if (this.checkScope) {
      const scope = this.copies.unseen(recordScopeOf(record, outcome.results, this.engine.rules));
      if (scope) outcome.scope = scope;
    }
    return outcome;
  }

  /** The results of one record's distinct interned triples, from the engine of our own or shacl-engine. */
  private async runEngine({ triples, pairs }: RecordTriples): Promise<ValidationResult[]> {
    return this.engine.core ? this.engine.core.validateTriples(triples, pairs) : this.engine.whole!.validate(triples);
  }
}
