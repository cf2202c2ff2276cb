import type * as RDF from '@rdfjs/types';
import { DistinctTriples } from '../rdf/DistinctTriples.js';
import { termsKey } from '../rdf/tripleKey.js';
import { isSharedEntityIri } from './entityIris.js';

/** Shared entities whose last run of statements is kept (first in, first out): a few MB at most. */
const RUNS_KEPT = 8192;

/** A shared entity's run of statements as last added, and how many of them count (no blank node object). */
interface Run {
  quads: RDF.Quad[];
  counted: number;
}

/**
 * The statements about shared entities (`isSharedTriple`) of records, counted, and the distinct ones among
 * them (their keys in a {@link DistinctTriples}, as `sharedTripleKeys` gives them). Records repeat a shared
 * entity's statements as they are (every record of a journal writes the journal's run of statements): a run
 * equal, term by term, to the run last added for its subject is counted without hashing it again (its keys
 * are in already), which makes the count exact and cheap. The last runs of at most {@link RUNS_KEPT} subjects
 * are kept.
 */
export class DistinctSharedTriples {
  private readonly keys = new DistinctTriples();
  private readonly runs = new Map<string, Run>();
  /** Statements about shared entities added. */
  count = 0;

  /** The distinct ones among them. */
  get distinct(): number {
    return this.keys.size;
  }

  /** Adds the statements of `quads` that are about shared entities (those of a record come subject by subject). */
  addQuads(quads: readonly RDF.Quad[]): void {
    const n = quads.length;
    for (let i = 0; i < n;) {
      const subject = quads[i]!.subject;
      let end = i + 1;
      while (end < n && sameTerm(quads[end]!.subject, subject)) end++;
      if (subject.termType !== 'BlankNode' && isSharedEntityIri(subject.value)) this.addRun(quads, i, end);
      i = end;
    }
  }

  /** Adds keys made elsewhere (`sharedTripleKeys` of a worker thread), one a statement. */
  addKeys(keys: readonly number[]): void {
    this.count += keys.length;
    for (let i = 0; i < keys.length; i++) this.keys.addKey(keys[i]!);
  }

  /** A run of one shared subject's statements, `quads[from..to)`. */
  private addRun(quads: readonly RDF.Quad[], from: number, to: number): void {
    const subject = quads[from]!.subject.value;
    const last = this.runs.get(subject);
    if (last !== undefined && sameRun(last.quads, quads, from, to)) {
      this.count += last.counted;
      return;
    }
    let counted = 0;
    for (let i = from; i < to; i++) {
      const q = quads[i]!;
      if (q.object.termType === 'BlankNode') continue;
      counted++;
      this.keys.addKey(termsKey(q));
    }
    this.count += counted;
    if (last === undefined && this.runs.size >= RUNS_KEPT) this.runs.delete(this.runs.keys().next().value!);
    this.runs.set(subject, { quads: quads.slice(from, to), counted });
  }
}

function sameRun(run: readonly RDF.Quad[], quads: readonly RDF.Quad[], from: number, to: number): boolean {
  if (run.length !== to - from) return false;
  for (let i = 0; i < run.length; i++) {
    const a = run[i]!;
    const b = quads[from + i]!;
    if (!sameTerm(a.predicate, b.predicate) || !sameTerm(a.object, b.object)) return false;
  }
  return true;
}

/** RDF/JS term equality of named nodes, blank nodes and literals (a literal's language, direction and datatype). */
function sameTerm(a: RDF.Term, b: RDF.Term): boolean {
  if (a === b) return true;
  if (a.termType !== b.termType || a.value !== b.value) return false;
  if (a.termType !== 'Literal') return a.termType !== 'Quad';
  const l = b as RDF.Literal;
  return (
    a.language === l.language &&
    (a.direction || '') === (l.direction || '') &&
    (a.datatype === l.datatype || a.datatype.value === l.datatype.value)
  );
}
