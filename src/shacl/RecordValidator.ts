import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Validator } from 'shacl-engine';
import type { CompileValidation, EnginePathStep, EngineResult } from 'shacl-engine';
import { ToolkitError } from '../errors.js';
import { DEFAULT_PREFIXES } from '../serialize/prefixes.js';
import { loadShapes } from './loadShapes.js';
import { RecordDataset } from './RecordDataset.js';
import { parseRecordText } from './RecordText.js';
import { parseSimpleNTriples } from './parseSimpleNTriples.js';
import type { RecordText } from './RecordText.js';
import { TermInterner, termKey } from './TermInterner.js';
import type { ShapesGraph } from './loadShapes.js';
import { tuneEngine } from './engineTuning.js';
import { NATIVE_CONSTRAINTS, SHAPES_NS, compileNativeSparql, compileStrictDatatype } from './nativeConstraints.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/**
 * What selects the focus nodes of a targeted shape, as shacl-engine resolved
 * it (its `TargetResolver`): a record none of whose types and predicates
 * appear here gives the shape no focus node, so the engine is not asked.
 */
interface TargetFilter {
  terms: RDF.Term[];
  /** Keys of the target classes (with their subclasses, as the engine resolves them). */
  classes: string[];
  /** IRIs of `sh:targetSubjectsOf` and `sh:targetObjectsOf`. */
  predicates: string[];
  /** `sh:targetNode` or `sh:target` (SPARQL, ...): always validated. */
  always: boolean;
}

/** Severity of a validation result (`sh:Violation`, `sh:Warning`, `sh:Info`). */
export type Severity = 'Violation' | 'Warning' | 'Info';

/** One step of a result path: one predicate (or alternatives), maybe inverse, maybe repeated. */
export interface PathStep {
  predicates: RDF.NamedNode[];
  inverse: boolean;
  quantifier: 'one' | 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne';
}

/** One SHACL validation result, in plain data. */
export interface ValidationResult {
  /** The node that does not conform (the work, a person, a list cell, ...). */
  focusNode: RDF.Term;
  /** The shape whose constraint failed (`sh:sourceShape`): a named property or node shape of `shapes/`. */
  shape: RDF.Term;
  /** The path, in SPARQL property-path syntax with the usual prefixes (`schema:pageStart`, `bibo:authorList/rdf:first`, with `*` `+` `?` `^` as in SPARQL), when the shape has one. */
  path: string | undefined;
  /** The same path as steps (for reports). */
  resultPath: readonly PathStep[] | undefined;
  severity: Severity;
  /** What is wrong, for a person (`sh:resultMessage`). */
  message: string;
  /** The offending value (`sh:value`), when there is one. */
  value: RDF.Term | undefined;
  /** `sh:sourceConstraintComponent`, e.g. `sh:MaxCountConstraintComponent`. */
  constraintComponent: RDF.NamedNode;
  /** `sh:sourceConstraint` of SPARQL constraints. */
  sourceConstraint: RDF.Term | undefined;
}

/** The outcome of validating one record (or any group of quads). */
export interface ValidationOutcome {
  /** True when no result has severity `Violation` (warnings do not make a record fail). */
  conforms: boolean;
  results: ValidationResult[];
  /** Number of `Violation` results. */
  violations: number;
  /** Number of `Warning` results. */
  warnings: number;
}

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
}

/**
 * Validates the quads of one record at a time against SHACL shapes with
 * shacl-engine. Build once ({@link RecordValidator.create}), call
 * {@link RecordValidator.validateRecord} per record: memory is that of one
 * record. Quads are validated whatever their graph.
 */
export class RecordValidator {
  private constructor(
    private readonly validator: Validator,
    /** The shapes that have targets: only these start a validation (the others are reached from them). */
    private readonly targeted: TargetFilter[],
    /** The shapes' terms: a record's terms are copied against them. */
    private readonly interner: TermInterner,
    /** The shapes in use. */
    readonly shapes: ShapesGraph,
    /** Whether records that share no node may be validated in one run (see {@link RecordRun}). */
    private readonly batchable: boolean,
  ) {}

  /** Loads the shapes and prepares the engine. */
  static async create(options: RecordValidatorOptions = {}): Promise<RecordValidator> {
    const shapes = options.shapes ?? (await loadShapes(options.shapesDir, { schemaScheme: options.schemaScheme }));
    const mode = options.sparql ?? 'native';
    const hasSparql = shapes.dataset.countQuads(null, DataFactory.namedNode(`${SH}sparql`), null, null) > 0;
    let fallback: CompileValidation | undefined;
    if (hasSparql) {
      const needsEngine =
        mode === 'engine' ||
        shapes.dataset
          .getObjects(null, DataFactory.namedNode(`${SH}sparql`), null)
          .some((c) => c.termType !== 'NamedNode' || !NATIVE_CONSTRAINTS.has(c.value));
      if (needsEngine) {
        // shacl-engine's SPARQL plugin (Comunica) is loaded only when a shape needs it.
        const plugin = await import('shacl-engine/sparql.js');
        fallback = [...plugin.validations.values()][0];
      }
    }
    const sparql: CompileValidation = mode === 'engine' && fallback ? fallback : compileNativeSparql(fallback);
    const validations: [RDF.Term, CompileValidation][] = [
      [DataFactory.namedNode(`${SH}datatype`), compileStrictDatatype],
      [DataFactory.namedNode(`${SH}sparql`), sparql],
    ];
    // The engine reads the shapes through plain-field terms in an indexed dataset
    // (n3's Store answers each match() with a new store and stream).
    const interner = new TermInterner();
    const shapesDataset = new RecordDataset(shapes.dataset.getQuads(null, null, null, null).map((q) => interner.quad(q)));
    let validator: Validator;
    try {
      validator = new Validator(shapesDataset, { factory: DataFactory as unknown as RDF.DataFactory, validations });
    } catch (err) {
      throw new ToolkitError(`the shapes cannot be used: ${(err as Error).message}`, 'parse', { cause: err });
    }
    compileAllShapes(validator);
    tuneEngine(validator.shapesPtr);
    const targetPredicates = ['targetClass', 'targetNode', 'targetObjectsOf', 'targetSubjectsOf', 'target'];
    const targeted = new Map<string, RDF.Term>();
    for (const p of targetPredicates) {
      for (const s of shapes.dataset.getSubjects(DataFactory.namedNode(`${SH}${p}`), null, null)) targeted.set(`${s.termType}|${s.value}`, s);
    }
    // Implicit class targets: a shape that is also a class.
    for (const s of shapes.dataset.getSubjects(DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), DataFactory.namedNode('http://www.w3.org/2000/01/rdf-schema#Class'), null)) {
      targeted.set(`${s.termType}|${s.value}`, s);
    }
    const filters = [...targeted.values()].map((t) => targetFilter(validator, interner.term(t)));
    const lookingBack = ['inversePath', 'targetObjectsOf', 'targetNode', 'target'].some(
      (p) => shapes.dataset.countQuads(null, DataFactory.namedNode(`${SH}${p}`), null, null) > 0,
    );
    const batchable = !lookingBack && fallback === undefined && !filters.some((f) => f.always);
    return new RecordValidator(validator, filters, interner, shapes, batchable);
  }

  /** Validates one group of quads (one record: its work and the nodes it owns). */
  async validateRecord(quads: Iterable<RDF.Quad>): Promise<ValidationOutcome> {
    return (await this.validateRecords([quads]))[0]!;
  }

  /**
   * Validates several records: the same outcomes as {@link validateRecord} on
   * each, in order, but records that share no node are validated in one run
   * of the engine, which costs less per record (about a quarter).
   */
  async validateRecords(records: readonly Iterable<RDF.Quad>[]): Promise<ValidationOutcome[]> {
    const interner = new TermInterner(this.interner);
    return this.validateTriples(records.map((quads) => dedupeQuads(quads, interner)));
  }

  /**
   * Parses and validates records given as N-Triples or N-Quads lines
   * ({@link RecordText}): the outcomes of {@link validateRecords} on their
   * quads. A syntax error throws a `ParseError` naming the input line. Plain
   * lines are read by {@link parseSimpleNTriples}, others by n3; both make
   * interned terms directly (no copy of their own terms).
   */
  async validateTexts(records: readonly RecordText[]): Promise<ValidationOutcome[]> {
    const interner = new TermInterner(this.interner);
    const factory = interner.factory();
    const parse = (record: RecordText) => parseSimpleNTriples(record.text, record.format, factory) ?? parseRecordText(record, factory);
    return this.validateTriples(records.map((record) => dedupeQuads(parse(record), interner, true)));
  }

  /** Validates the distinct interned triples of each record (see {@link validateRecords}). */
  private async validateTriples(records: readonly RDF.Quad[][]): Promise<ValidationOutcome[]> {
    const outcomes: ValidationOutcome[] = [];
    if (!this.batchable || records.length < 2) {
      for (const triples of records) outcomes.push(outcomeOf((await this.runEngine(triples)).map(toResult)));
      return outcomes;
    }
    let run = new RecordRun();
    for (const triples of records) {
      const record = recordNodes(triples);
      if (!run.accepts(record)) {
        outcomes.push(...(await this.validateRun(run)));
        run = new RecordRun();
      }
      run.add(record);
    }
    outcomes.push(...(await this.validateRun(run)));
    return outcomes;
  }

  /** One engine run over records that share no node; each result goes to the record that owns its focus node. */
  private async validateRun(run: RecordRun): Promise<ValidationOutcome[]> {
    if (run.records.length === 1) return [outcomeOf((await this.runEngine(run.records[0]!.triples)).map(toResult))];
    const perRecord: ValidationResult[][] = run.records.map(() => []);
    for (const r of await this.runEngine(run.records.flatMap((record) => record.triples))) {
      const owner = run.owner.get(termKey(r.focusNode.term));
      if (owner === undefined) return this.validateOneByOne(run);
      perRecord[owner]!.push(toResult(r));
    }
    return perRecord.map(outcomeOf);
  }

  /** A focus node that is no record's subject (shapes of another kind): the records one by one instead. */
  private async validateOneByOne(run: RecordRun): Promise<ValidationOutcome[]> {
    const outcomes: ValidationOutcome[] = [];
    for (const record of run.records) outcomes.push(outcomeOf((await this.runEngine(record.triples)).map(toResult)));
    return outcomes;
  }

  /** Runs the engine over some distinct interned triples, with the shapes that can have a focus node among them. */
  private async runEngine(triples: RDF.Quad[]): Promise<EngineResult[]> {
    const types = new Set<string>();
    const predicates = new Set<string>();
    for (const q of triples) {
      predicates.add(q.predicate.value);
      if (q.predicate.value === RDF_TYPE) types.add(termKey(q.object));
    }
    const shapes = this.targeted.filter(
      (t) => t.always || t.classes.some((c) => types.has(c)) || t.predicates.some((p) => predicates.has(p)),
    );
    const report = await this.validator.validate({ dataset: new RecordDataset(triples) }, shapes);
    return report.results;
  }
}

/** The triples of one record and the keys of its nodes. */
interface RecordNodes {
  triples: RDF.Quad[];
  /** Keys of its subjects. */
  subjects: Set<string>;
  /** Keys of its objects that are nodes (IRIs and blank nodes). */
  objects: Set<string>;
}

function recordNodes(triples: RDF.Quad[]): RecordNodes {
  const subjects = new Set<string>();
  const objects = new Set<string>();
  for (const q of triples) {
    subjects.add(termKey(q.subject));
    if (q.object.termType !== 'Literal') objects.add(termKey(q.object));
  }
  return { triples, subjects, objects };
}

/**
 * Records validated in one engine run. With shapes that only look forward
 * (no inverse path, no target by object or by node, no SPARQL of the engine)
 * a focus node sees the same data in the run as in its record alone, as long
 * as no record's node is a subject of another: {@link accepts} keeps it so.
 */
class RecordRun {
  readonly records: RecordNodes[] = [];
  /** Subject key -> index of the record it belongs to. */
  readonly owner = new Map<string, number>();
  private readonly objects = new Set<string>();

  accepts(record: RecordNodes): boolean {
    for (const s of record.subjects) if (this.owner.has(s) || this.objects.has(s)) return false;
    for (const o of record.objects) if (this.owner.has(o)) return false;
    return true;
  }

  add(record: RecordNodes): void {
    const index = this.records.push(record) - 1;
    for (const s of record.subjects) this.owner.set(s, index);
    for (const o of record.objects) this.objects.add(o);
  }
}

function outcomeOf(results: ValidationResult[]): ValidationOutcome {
  let violations = 0;
  let warnings = 0;
  for (const r of results) {
    if (r.severity === 'Violation') violations++;
    else if (r.severity === 'Warning') warnings++;
  }
  return { conforms: violations === 0, results, violations, warnings };
}

function toResult(r: EngineResult): ValidationResult {
  const severity = r.severity.value.startsWith(SH) ? (r.severity.value.slice(SH.length) as Severity) : 'Violation';
  const resultPath = r.path ? r.path.map(toStep) : undefined;
  return {
    focusNode: r.focusNode.term,
    shape: r.shape.ptr.term,
    path: resultPath ? pathToString(resultPath) : undefined,
    resultPath,
    severity,
    message: r.message.map((m) => m.value).join(' ') || 'does not conform',
    value: r.value?.term,
    constraintComponent: r.constraintComponent,
    sourceConstraint: r.source[0],
  };
}

function toStep(step: EnginePathStep): PathStep {
  return {
    predicates: step.predicates as RDF.NamedNode[],
    inverse: step.start === 'object',
    quantifier: step.quantifier,
  };
}

/** A compact name of an IRI with the toolkit's prefixes (`schema:name`), else `<iri>`. */
export function compactIri(iri: string): string {
  for (const [prefix, ns] of Object.entries(DEFAULT_PREFIXES)) {
    if (iri.startsWith(ns) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(iri.slice(ns.length))) return `${prefix}:${iri.slice(ns.length)}`;
  }
  if (iri.startsWith(SHAPES_NS) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(iri.slice(SHAPES_NS.length))) return `srsh:${iri.slice(SHAPES_NS.length)}`;
  if (iri.startsWith(SH)) return `sh:${iri.slice(SH.length)}`;
  return `<${iri}>`;
}

/** A path in SPARQL property-path syntax: `schema:name`, `^schema:author`, `(rdf:rest)*` written without parentheses. */
export function pathToString(steps: readonly PathStep[]): string {
  return steps
    .map((s) => {
      const names = s.predicates.map((p) => compactIri(p.value));
      let text = names.length > 1 ? `(${names.join('|')})` : names[0]!;
      if (s.inverse) text = `^${text}`;
      const q = s.quantifier === 'zeroOrMore' ? '*' : s.quantifier === 'oneOrMore' ? '+' : s.quantifier === 'zeroOrOne' ? '?' : '';
      return q && (s.inverse || names.length > 1) ? `(${text})${q}` : `${text}${q}`;
    })
    .join('/');
}

/**
 * The distinct triples of some quads (graphs ignored), as a dataset would hold them, with `interner`'s terms
 * (`interned`: the quads already have them, made by its factory).
 */
function dedupeQuads(quads: Iterable<RDF.Quad>, interner: TermInterner, interned = false): RDF.Quad[] {
  // Interned terms are one object per term: the triples seen, by subject, predicate and object identity.
  const seen = new Map<RDF.Term, Map<RDF.Term, Set<RDF.Term>>>();
  const out: RDF.Quad[] = [];
  for (const quad of quads) {
    const q = interned ? quad : interner.quad(quad);
    let byPredicate = seen.get(q.subject);
    if (!byPredicate) seen.set(q.subject, (byPredicate = new Map()));
    let objects = byPredicate.get(q.predicate);
    if (!objects) byPredicate.set(q.predicate, (objects = new Set()));
    if (objects.has(q.object)) continue;
    objects.add(q.object);
    out.push(q);
  }
  return out;
}

/** The target filter of a shape, read from shacl-engine's own target resolver of the shape. */
function targetFilter(validator: Validator, term: RDF.Term): TargetFilter {
  const engine = validator as unknown as {
    shapesPtr: { node(terms: RDF.Term[]): unknown };
    shape(ptr: unknown): {
      targetResolver: {
        targetClass: Iterable<RDF.Term>;
        targetNode: RDF.Term[];
        targetSubjectsOf: RDF.Term[];
        targetObjectsOf: RDF.Term[];
        targets: unknown[];
      };
    } | null;
  };
  const resolver = engine.shape(engine.shapesPtr.node([term]))?.targetResolver;
  const known =
    resolver &&
    resolver.targetClass?.[Symbol.iterator] &&
    Array.isArray(resolver.targetNode) &&
    Array.isArray(resolver.targetSubjectsOf) &&
    Array.isArray(resolver.targetObjectsOf) &&
    Array.isArray(resolver.targets);
  // Another version of the engine: no filter, every targeted shape is validated.
  if (!known) return { terms: [term], classes: [], predicates: [], always: true };
  return {
    terms: [term],
    classes: [...resolver.targetClass].map(termKey),
    predicates: [...resolver.targetSubjectsOf, ...resolver.targetObjectsOf].map((p) => p.value),
    always: resolver.targetNode.length > 0 || resolver.targets.length > 0,
  };
}

/**
 * Compiles every shape now, the shapes the compiled ones reach included:
 * shacl-engine compiles a shape when it first validates with it, and a shape
 * it cannot compile (an `sh:pattern` that is no regular expression, ...) would
 * then fail in the middle of a run, and pass silently after that. Throws a
 * `parse` error naming the shape.
 */
function compileAllShapes(validator: Validator): void {
  const engine = validator as unknown as {
    shapes: { values(): Iterable<{ ptr: { term: RDF.Term }; shapeValidator: { compiled: unknown } }> };
  };
  if (typeof engine.shapes?.values !== 'function') return; // another version of the engine: it compiles as it goes
  const done = new Set<unknown>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const shape of [...engine.shapes.values()]) {
      if (done.has(shape)) continue;
      done.add(shape);
      grew = true;
      try {
        void shape.shapeValidator.compiled;
      } catch (err) {
        const term = shape.ptr.term;
        const name = term.termType === 'NamedNode' ? `<${term.value}>` : `a shape (blank node) ${describeBlankShape(validator, term)}`;
        throw new ToolkitError(`the shapes cannot be used: ${name}: ${(err as Error).message}`, 'parse', { cause: err });
      }
    }
  }
}

/** Where a blank-node shape is: its `sh:path` and the shape whose property it is, when it has them. */
function describeBlankShape(validator: Validator, term: RDF.Term): string {
  const engine = validator as unknown as { shapesPtr: { dataset: RDF.DatasetCore } };
  const dataset = engine.shapesPtr?.dataset;
  if (!dataset) return '';
  const path = [...dataset.match(term, DataFactory.namedNode(`${SH}path`), null)][0]?.object;
  const owner = [...dataset.match(null, DataFactory.namedNode(`${SH}property`), term)][0]?.subject;
  return [path?.termType === 'NamedNode' ? `with sh:path <${path.value}>` : '', owner?.termType === 'NamedNode' ? `in <${owner.value}>` : ''].filter(Boolean).join(' ');
}
