import type * as RDF from '@rdfjs/types';
import { DistinctTriples } from '../rdf/DistinctTriples.js';
import { termsKey } from '../rdf/tripleKey.js';
import { SharedSubjects } from './sharedTriples.js';

/** Shared subjects whose last run of statements is remembered (a journal's, a person's: a few each); then it starts again. */
const RUNS_KEPT = 8192;
/** The statements of a run remembered at most (the first ones: a subject's in an RDF input may be many). */
const RUN_KEPT = 64;

/** A shared subject's statements in the last record that named it, and where the record being counted is in them. */
interface Remembered {
  /** The statements (the first {@link RUN_KEPT}), all counted. */
  run: readonly RDF.Quad[];
  /** The record being counted: its statements of the subject so far, once one differs from `run`. */
  fresh: RDF.Quad[] | undefined;
  /** How many statements of the subject the record being counted has had so far. */
  at: number;
  /** The number of the record `at` and `fresh` are of. */
  record: number;
}

const NONE: readonly RDF.Quad[] = [];

/**
 * Counts the statements about shared entities of records (`isSharedTriple`: a journal's, a publisher's, an
 * ORCID person's, which every record naming the entity writes again) and the distinct ones among them, kept as
 * 53-bit keys (`termsKey`, in {@link DistinctTriples}: 16 to 32 bytes a distinct statement).
 *
 * A key costs a hash of the statement's text; most statements about shared entities repeat one met before, in
 * the same order (a journal's name, ISSNs and publisher, in every record of the journal). So the statements of
 * each shared subject in the last record that named it are remembered (up to {@link RUNS_KEPT} subjects,
 * {@link RUN_KEPT} statements each, in one run or several), and a record's n-th statement of the subject equal
 * to the n-th remembered (the same predicate, the same object: compared, not hashed) is a repeat: it was
 * counted, its key is not made again. What is remembered was counted, so the counts are those of keying every
 * statement.
 */
export class DistinctSharedStatements {
  private readonly keys = new DistinctTriples();
  private readonly runs = new Map<string, Remembered>();
  /** The subjects the record being counted named. */
  private readonly touched: Remembered[] = [];
  private records = 0;
  /** Statements about shared entities counted. */
  count = 0;
  /** Of them, those whose key was made (the others repeat what was remembered). */
  keyed = 0;

  /** `runsKept`: the shared subjects remembered at most. Defaults to {@link RUNS_KEPT}. */
  constructor(private readonly runsKept = RUNS_KEPT) {}

  /** The distinct statements about shared entities counted. */
  get distinct(): number {
    return this.keys.size;
  }

  /** Counts the statements of `quads` (a record's, or a part of an RDF input) that are about shared entities. */
  add(quads: readonly RDF.Quad[]): void {
    const record = ++this.records;
    const touched = this.touched;
    const subjects = new SharedSubjects();
    // the shared subject of the statements in a row and what is remembered of it, or undefined
    let subject: string | undefined;
    let entry: Remembered | undefined;
    for (let i = 0; i < quads.length; i++) {
      const q = quads[i]!;
      if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') continue;
      const shared = subjects.of(q.subject);
      if (shared !== subject) {
        subject = shared;
        entry = shared === undefined ? undefined : this.entry(shared, record);
      }
      if (entry === undefined) continue;
      this.count++;
      const at = entry.at++;
      const run = entry.run;
      let fresh = entry.fresh;
      if (at < run.length && sameStatement(run[at]!, q)) {
        if (fresh !== undefined && fresh.length < RUN_KEPT) fresh.push(q);
        continue;
      }
      if (fresh === undefined) entry.fresh = fresh = run.slice(0, Math.min(at, RUN_KEPT));
      if (fresh.length < RUN_KEPT) fresh.push(q);
      this.keyed++;
      this.keys.addKey(termsKey(q));
    }
    for (let i = 0; i < touched.length; i++) {
      const e = touched[i]!;
      if (e.fresh !== undefined) {
        e.run = e.fresh;
        e.fresh = undefined;
      }
    }
    touched.length = 0;
  }

  /** Counts statements about shared entities by their keys (`sharedTripleKeys`, as a worker thread made them). */
  addKeys(keys: readonly number[]): void {
    this.count += keys.length;
    for (let i = 0; i < keys.length; i++) this.keys.addKey(keys[i]!);
  }

  /** What is remembered of a shared subject, set to count the statements of `record`. */
  private entry(subject: string, record: number): Remembered {
    let entry = this.runs.get(subject);
    if (entry === undefined) {
      if (this.runs.size >= this.runsKept) this.runs.clear();
      entry = { run: NONE, fresh: undefined, at: 0, record };
      this.runs.set(subject, entry);
      this.touched.push(entry);
    } else if (entry.record !== record) {
      entry.record = record;
      entry.at = 0;
      entry.fresh = undefined;
      this.touched.push(entry);
    }
    return entry;
  }
}

/** Whether two statements of one subject have the same predicate and object (as `termsKey` tells terms apart). */
function sameStatement(a: RDF.Quad, b: RDF.Quad): boolean {
  if (a.predicate !== b.predicate && a.predicate.value !== b.predicate.value) return false;
  const x = a.object;
  const y = b.object;
  if (x === y) return true;
  if (x.termType !== y.termType || x.value !== y.value) return false;
  if (x.termType !== 'Literal') return true;
  const l = y as RDF.Literal;
  return (
    x.language === l.language &&
    (x as { direction?: string }).direction === (l as { direction?: string }).direction &&
    (x.datatype === l.datatype || x.datatype.value === l.datatype.value)
  );
}
