import type * as RDF from '@rdfjs/types';
import { recordKeyOfIri } from '../../group/groupRecords.js';
import type { NodeReads, ShapesScope } from './analyseShapes.js';
import { hasScopeMemo, isRecordKeyed, termKey } from '../engine/TermInterner.js';
import type { RecordTriples } from '../engine/RecordIndex.js';
import { NS, RDFS_SUBCLASS_OF } from '../../rdf/namespaces.js';
import { detachedString } from '../../rdf/detached.js';

const RDF_NS = NS.rdf;
const RDF_TYPE = `${RDF_NS}type`;
const RDF_NIL = `${RDF_NS}nil`;
const SUBCLASS_OF = RDFS_SUBCLASS_OF;
const SH = NS.sh;

/**
 * What validating one record (or group of quads) alone may have got wrong
 * compared with SHACL on the whole graph ({@link recordScopeOf}), for the
 * reading thread to add up ({@link ScopeCheck}).
 */
export interface RecordScope {
  /** Why this group's results may differ from the whole graph's (the first few). */
  beyond?: string[];
  /** Each shared node of the group (an IRI no record owns) as [hash of its IRI, fingerprint of the triples its copies must agree on, its IRI]. */
  shared?: [number, number, string][];
}

/** The shapes' side of {@link recordScopeOf}: prepared once per validator. */
export interface ScopeRules {
  /** What each predicate (by IRI) is to the check: bits {@link PATH}, {@link INSPECTED}, {@link TYPE}, {@link SUBCLASS}, {@link SUBJECT_OF}. */
  flags: ReadonlyMap<string, number>;
  /** {@link agreedOf} the reads of each class's shapes (by IRI), of each `sh:targetSubjectsOf` predicate's, and of values'. */
  agreedByClass: ReadonlyMap<string, ReadonlySet<string> | true>;
  agreedBySubjectOf: ReadonlyMap<string, ReadonlySet<string> | true>;
  agreedOfValues: ReadonlySet<string> | true;
  /** The FNV-1a states after each language tag (filled as met). */
  predicateHashes: Map<string, [number, number]>;
  /**
   * The record of IRIs by their (interned) term, `null` for none (filled as met, emptied past {@link KEYS_KEPT} and
   * for each batch of records: {@link forgetRecordTerms}): the classes, predicates' objects and shared nodes of the
   * records come back record after record.
   */
  recordKeys: Map<RDF.Term, string | null>;
  /** Terms (by key) that are shapes: data giving them a type the shapes graph does not changes the targets. */
  shapeKeys: ReadonlySet<string>;
  /** The `rdf:type` and `rdfs:subClassOf` triples of the shapes graph (`<s> <p> <o>` of IRIs and blank nodes by key): the data repeating them changes nothing. */
  shapesClassTriples: ReadonlySet<string>;
}

/** Results whose answer on one copy of a node is its answer on the union of copies (values one by one, or counts whose predicates every copy agrees on). */
const SAFE_COMPONENTS = new Set(
  [
    'Datatype',
    'NodeKind',
    'Pattern',
    'MinLength',
    'MaxLength',
    'LanguageIn',
    'In',
    'MinInclusive',
    'MaxInclusive',
    'MinExclusive',
    'MaxExclusive',
    'Closed',
    'MaxCount',
    'UniqueLang',
    'Equals',
    'Disjoint',
    'LessThan',
    'LessThanOrEquals',
    'SPARQL',
  ].map((c) => `${SH}${c}ConstraintComponent`),
);

const MAX_REASONS = 3;

/** What {@link recordScopeOf} reads of a result (a `ValidationResult`). */
export interface ScopedResult {
  focusNode: RDF.Term;
  value: RDF.Term | undefined;
  constraintComponent: RDF.NamedNode;
}

/**
 * Checks that a group of distinct triples was self-contained for the shapes
 * ({@link analyseShapes}): no triple on a path predicate names a node of
 * another record or a blank node the group does not hold, no node whose
 * triples the shapes read is missing, no `rdfs:subClassOf` and no description
 * of a shape in the data, and no result on a node other records may describe
 * that their triples could undo. Shared nodes are fingerprinted for the
 * reading thread to compare their copies. Undefined when there is nothing to say.
 * The record's terms are interned (`distinctRecord`): a node is the same object
 * wherever it stands, and its subject's pairs say whether the record holds its triples.
 */
export function recordScopeOf(
  record: RecordTriples,
  results: readonly ScopedResult[],
  rules: ScopeRules,
): RecordScope | undefined {
  const { triples, pairs } = record;
  const byTerm = derivedOf(rules).flags;
  const beyond: string[] = [];
  const say = (why: string) => {
    if (beyond.length < MAX_REASONS) beyond.push(why);
  };
  // The records of the IRI subjects (a record holds one, as a rule: no set of them).
  const own: string[] = [];
  for (const s of pairs.keys()) {
    if (s.termType !== 'NamedNode') continue;
    const key = recordKeyOf(s, rules);
    if (key !== undefined && !own.includes(key)) own.push(key);
  }
  let linking: RDF.Quad[] | undefined;
  for (const q of triples) {
    const flags = flagsOf(q.predicate, rules, byTerm);
    if (flags === 0) continue;
    const s = q.subject;
    if (flags & SUBCLASS && !rules.shapesClassTriples.has(classTriple(q)))
      say(`rdfs:subClassOf in the data (${label(s)} rdfs:subClassOf ${label(q.object)}): classes reach across records`);
    if (flags & TYPE && isShape(s, rules) && !rules.shapesClassTriples.has(classTriple(q)))
      say(`the data gives ${label(s)}, a shape, a type`);
    if (!(flags & PATH)) continue;
    const o = q.object;
    if (
      o.termType === 'BlankNode' ||
      (o.termType === 'NamedNode' && (flags & INSPECTED || recordKeyOf(o, rules) !== undefined))
    )
      (linking ??= []).push(q);
  }
  if (own.length > 1) say(`holds nodes of ${own.length} records (${own.slice(0, 3).join(', ')})`);
  let inspected: RDF.Quad[] | undefined;
  for (const q of linking ?? NO_QUADS) {
    const o = q.object;
    if (o.termType === 'NamedNode') {
      const key = recordKeyOf(o, rules);
      if (key !== undefined && !own.includes(key))
        say(`${label(q.subject)} ${label(q.predicate)} ${label(o)}: a node of record ${key}`);
      else if (
        key === undefined &&
        !pairs.has(o) &&
        o.value !== RDF_NIL &&
        flagsOf(q.predicate, rules, byTerm) & INSPECTED
      )
        (inspected ??= []).push(q);
    } else if (!pairs.has(o)) {
      say(`names the blank node ${label(o)} without its triples`);
    }
  }
  for (const q of inspected ?? NO_QUADS) say(`names ${label(q.object)} (${label(q.predicate)}) without its triples`);
  const owned = (t: RDF.Term) => {
    if (t.termType === 'BlankNode') return pairs.has(t);
    const key = t.termType === 'NamedNode' ? recordKeyOf(t, rules) : undefined;
    return key !== undefined && own.includes(key);
  };
  for (const r of results) {
    if (SAFE_COMPONENTS.has(r.constraintComponent.value)) continue;
    const value = r.value && r.value.termType !== 'Literal' && !owned(r.value) ? r.value : undefined;
    if (value || !owned(r.focusNode))
      say(
        `a result (sh:${r.constraintComponent.value.slice(SH.length)}) on ${label(value ?? r.focusNode)}, which other records may describe too`,
      );
  }
  const prints = fingerprints(pairs, rules, byTerm);
  if (!beyond.length && !prints.length) return undefined;
  return { ...(beyond.length ? { beyond } : {}), ...(prints.length ? { shared: prints } : {}) };
}

const NO_QUADS: readonly RDF.Quad[] = [];

/**
 * Fingerprints of the shared nodes' triples that every copy must agree on: [hash of the IRI, hash of those
 * triples, the IRI], for each IRI subject of no record (a shared node), in the record's order.
 */
function fingerprints(
  pairs: ReadonlyMap<RDF.Term, readonly RDF.Term[]>,
  rules: ScopeRules,
  byTerm: Map<RDF.Term, number>,
): [number, number, string][] {
  const out: [number, number, string][] = [];
  const sets: (ReadonlySet<string> | true)[] = [];
  for (const [node, own] of pairs) {
    if (node.termType !== 'NamedNode' || recordKeyOf(node, rules) !== undefined) continue;
    // The predicates a copy must agree on: those of the shapes that can have the node as a focus (by its
    // types and its sh:targetSubjectsOf predicates), of values, its types and those predicates themselves.
    sets.length = 0;
    sets.push(rules.agreedOfValues);
    for (let i = 0; i < own.length; i += 2) {
      const p = own[i]!;
      const o = own[i + 1]!;
      const flags = flagsOf(p, rules, byTerm);
      if (flags & TYPE && o.termType === 'NamedNode') {
        const agreed = rules.agreedByClass.get(o.value);
        if (agreed) sets.push(agreed);
      }
      if (flags & SUBJECT_OF) sets.push(rules.agreedBySubjectOf.get(p.value)!);
    }
    let a = 0;
    let b = 0;
    for (let i = 0; i < own.length; i += 2) {
      const term = own[i]!;
      const p = term.value;
      if (!(flagsOf(term, rules, byTerm) & (TYPE | SUBJECT_OF)) && !agreedIn(sets, p)) continue;
      tripleHash(term, own[i + 1]!, rules);
      a = (a + HASHED[0]) >>> 0;
      b = (b + HASHED[1]) >>> 0;
    }
    const h = valueHashOf(node);
    out.push([h[0] * 2 ** 21 + (h[1] >>> 11), a * 2 ** 21 + (b >>> 11), node.value]);
  }
  return out;
}

/** Whether any of the sets (or `true`: every predicate) holds `p`. */
function agreedIn(sets: readonly (ReadonlySet<string> | true)[], p: string): boolean {
  for (const set of sets) if (set === true || set.has(p)) return true;
  return false;
}

/** The predicates each copy of a node must agree on, given the reads of the shapes that may validate it. */
export function agreedOf(reads: readonly NodeReads[]): ReadonlySet<string> | true {
  if (reads.some((r) => r.all)) return true;
  return new Set(reads.flatMap((r) => [...r.predicates]));
}

/** Bits of {@link ScopeRules.flags}. */
export const PATH = 1;
export const INSPECTED = 2;
export const TYPE = 4;
export const SUBCLASS = 8;
export const SUBJECT_OF = 16;

/** The {@link ScopeRules.flags} of some shapes' scope. */
export function predicateFlags(scope: ShapesScope, subjectOf: Iterable<string>): Map<string, number> {
  const flags = new Map<string, number>();
  const set = (p: string, bit: number) => flags.set(p, (flags.get(p) ?? 0) | bit);
  for (const p of scope.pathPredicates) set(p, PATH);
  for (const p of scope.inspected) set(p, INSPECTED);
  for (const p of subjectOf) set(p, SUBJECT_OF);
  set(RDF_TYPE, TYPE);
  set(SUBCLASS_OF, SUBCLASS);
  return flags;
}

/**
 * The fingerprints of shared nodes a validator has already told of (in its
 * outcomes' `scope`): a copy is told the first time, and again only when it
 * differs from the last one told, so that a journal named by every record
 * costs no message each time. Any two copies that differ still both reach
 * {@link ScopeCheck}: the first, and the one that differs. Use a validator for
 * one run (a copy told in an earlier run is not told again).
 */
export class CopiesTold {
  private readonly told = new Map<number, number>();
  /** What {@link unseen} changed since {@link journal} was called: each hash with its fingerprint before. */
  private log: [number, number | undefined][] | undefined;

  /** The scope with only the copies not told yet (undefined when nothing is left to say). */
  unseen(scope: RecordScope | undefined): RecordScope | undefined {
    if (!scope?.shared) return scope;
    const fresh = scope.shared.filter(([hash, fingerprint]) => {
      const before = this.told.get(hash);
      if (before === fingerprint) return false;
      this.log?.push([hash, before]);
      this.told.set(hash, fingerprint);
      return true;
    });
    if (fresh.length) return { ...scope, shared: fresh };
    return scope.beyond ? { beyond: scope.beyond } : undefined;
  }

  /** Remembers what {@link unseen} tells from now on, until `close`: `rollback` forgets it again (as if untold). */
  journal(): { rollback(): void; close(): void } {
    const log: [number, number | undefined][] = [];
    this.log = log;
    return {
      rollback: () => {
        for (let i = log.length - 1; i >= 0; i--) {
          const [hash, before] = log[i]!;
          if (before === undefined) this.told.delete(hash);
          else this.told.set(hash, before);
        }
        log.length = 0;
      },
      close: () => {
        if (this.log === log) this.log = undefined;
      },
    };
  }
}

/**
 * Adds up the {@link RecordScope}s of a run, in the reading thread: the
 * reasons, and whether two copies of a shared node differ. Memory: a pair of
 * numbers for each distinct shared node.
 */
export class ScopeCheck {
  /** Why the run's results may differ from SHACL on the whole graph (the first few). */
  readonly reasons: string[] = [];
  /** Groups with a reason. */
  groups = 0;
  private readonly copies = new Map<number, number>();

  add(scope: RecordScope | undefined, record: string | undefined): void {
    if (!scope) return;
    let first: string | undefined = scope.beyond?.[0];
    for (const [hash, fingerprint, iri] of scope.shared ?? []) {
      const before = this.copies.get(hash);
      if (before === undefined) this.copies.set(hash, fingerprint);
      else if (before !== fingerprint)
        first ??= `<${iri}> is written differently here than in an earlier record (what the shapes count or compare)`;
    }
    if (first === undefined) return;
    this.groups++;
    if (this.reasons.length < MAX_REASONS)
      this.reasons.push(record === undefined ? first : `record ${record}: ${first}`);
  }

  /** Whether every group was self-contained and every shared node's copies agree. */
  get exact(): boolean {
    return this.groups === 0;
  }
}

/** The key of an `rdf:type` or `rdfs:subClassOf` triple in {@link ScopeRules.shapesClassTriples}. */
export function classTriple(q: RDF.Quad): string {
  return `${termKey(q.subject)} ${q.predicate.value} ${termKey(q.object)}`;
}

/** Whether an IRI may be a record's (`https://doi.org/…`, `…/doi/10.…#…`): a quick test before {@link recordKeyOfIri}. */
function mayBeOwned(iri: string): boolean {
  return iri.startsWith('https://doi.org/') || iri.includes('/doi/10.');
}

/** The flags of predicates by term, and the IRIs of shapes, of each {@link ScopeRules} (derived from it when first asked). */
const derived = new WeakMap<ScopeRules, { flags: Map<RDF.Term, number>; shapeIris: Set<string> }>();

function derivedOf(rules: ScopeRules): { flags: Map<RDF.Term, number>; shapeIris: Set<string> } {
  let d = derived.get(rules);
  if (!d) {
    const shapeIris = new Set<string>();
    for (const key of rules.shapeKeys) if (key.startsWith('N')) shapeIris.add(key.slice(1));
    derived.set(rules, (d = { flags: new Map(), shapeIris }));
  }
  return d;
}

/**
 * {@link ScopeRules.flags} of a predicate (0: none), found once per term (the shapes' terms stay; a batch's own are
 * forgotten with it: {@link forgetRecordTerms}): one look-up by identity a triple, not a string's.
 */
function flagsOf(p: RDF.Term, rules: ScopeRules, byTerm: Map<RDF.Term, number>): number {
  let flags = byTerm.get(p);
  if (flags === undefined) {
    flags = rules.flags.get(p.value) ?? 0;
    // (Bounded as recordKeys is, for a caller that never forgets its terms.)
    if (byTerm.size < KEYS_KEPT) byTerm.set(p, flags);
  }
  return flags;
}

/** Whether a term is a shape ({@link ScopeRules.shapeKeys}), without its key made. */
function isShape(t: RDF.Term, rules: ScopeRules): boolean {
  if (t.termType === 'NamedNode') return derivedOf(rules).shapeIris.has(t.value);
  return rules.shapeKeys.has(termKey(t));
}

/** The terms {@link ScopeRules.recordKeys} holds at most (then it starts again). */
const KEYS_KEPT = 4096;

/**
 * Forgets {@link ScopeRules.recordKeys}, for records whose terms come from a new interner (a batch): the terms of the
 * batches before do not come back. A new map, not the old one emptied: the map lives as long as the validator, in
 * the old generation, where an emptied map's next table is made too; each table, once dropped, kept the terms
 * written in it (and their lines) alive through every young collection until a full one, which copied them all
 * into the old generation (18 MB of tables and terms over 10,000 records, and the lines).
 */
export function forgetRecordTerms(rules: ScopeRules): void {
  rules.recordKeys = new Map();
  const d = derived.get(rules);
  if (d) d.flags = new Map();
}

/**
 * The record of a named node ({@link recordKeyOfIri}), found once per term: kept on an interned term itself
 * ({@link RecordKeyed}: no map to look it up in), else in {@link ScopeRules.recordKeys}.
 */
function recordKeyOf(t: RDF.Term, rules: ScopeRules): string | undefined {
  if (isRecordKeyed(t)) {
    const known = t.recordKey;
    if (known !== undefined) return known ?? undefined;
    const key = mayBeOwned(t.value) ? recordKeyOfIri(t.value) : undefined;
    t.recordKey = key ?? null;
    return key;
  }
  const known = rules.recordKeys.get(t);
  if (known !== undefined) return known ?? undefined;
  const key = mayBeOwned(t.value) ? recordKeyOfIri(t.value) : undefined;
  if (rules.recordKeys.size >= KEYS_KEPT) forgetRecordTerms(rules);
  rules.recordKeys.set(t, key ?? null);
  return key;
}

function label(t: RDF.Term): string {
  return t.termType === 'NamedNode'
    ? `<${t.value}>`
    : t.termType === 'BlankNode'
      ? `_:${t.value}`
      : JSON.stringify(t.value);
}

const SEED_A = 0x811c9dc5;
const SEED_B = 0x050c5d1f;
const FNV_PRIME = 0x01000193;
/** The two hashes {@link hash2} and {@link tripleHash} compute (no array made per call). */
const HASHED: [number, number] = [0, 0];

/** Two FNV-1a hashes (from `a` and `b`) of a string's UTF-16 code units, in one pass, into {@link HASHED}. */
function hash2(text: string, a: number, b: number): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME);
    b = Math.imul(b ^ c, FNV_PRIME);
  }
  HASHED[0] = a >>> 0;
  HASHED[1] = b >>> 0;
}

/**
 * {@link hash2} of a term's value from the seeds, remembered on an interned term ({@link ScopeMemo}): a shared
 * node's IRI, its predicates and objects, and literals' datatypes are hashed once per batch (the shapes' terms once).
 */
function valueHashOf(t: RDF.Term): readonly [number, number] {
  if (hasScopeMemo(t)) {
    const known = t.valueHash;
    if (known) return known;
    hash2(t.value, SEED_A, SEED_B);
    return (t.valueHash = [HASHED[0], HASHED[1]]);
  }
  hash2(t.value, SEED_A, SEED_B);
  return [HASHED[0], HASHED[1]];
}

/**
 * A hash of a triple's predicate and object into {@link HASHED}: the hashes of the predicate's IRI, the object's
 * kind and value ({@link valueHashOf}), and a literal's language tag and datatype IRI, mixed.
 */
function tripleHash(predicate: RDF.Term, o: RDF.Term, rules: ScopeRules): void {
  // (Each hash read before the next is asked for: valueHashOf and hashOf compute theirs in HASHED.)
  const ph = valueHashOf(predicate);
  const oh = valueHashOf(o);
  const kind = o.termType.length;
  let a = Math.imul(Math.imul(ph[0] ^ kind, FNV_PRIME) ^ oh[0], FNV_PRIME);
  let b = Math.imul(Math.imul(ph[1] ^ kind, FNV_PRIME) ^ oh[1], FNV_PRIME);
  if (o.termType === 'Literal') {
    if (o.language) {
      const lh = hashOf(o.language, rules);
      a = Math.imul(a ^ lh[0], FNV_PRIME);
      b = Math.imul(b ^ lh[1], FNV_PRIME);
    }
    const dh = valueHashOf(o.datatype);
    a = Math.imul(a ^ dh[0], FNV_PRIME);
    b = Math.imul(b ^ dh[1], FNV_PRIME);
  }
  HASHED[0] = a >>> 0;
  HASHED[1] = b >>> 0;
}

/** {@link hash2} of a language tag, remembered in {@link ScopeRules.predicateHashes}. */
function hashOf(text: string, rules: ScopeRules): [number, number] {
  let hashes = rules.predicateHashes.get(text);
  if (!hashes) {
    // HASHED holds a hash being made: saved and put back.
    const [a, b] = HASHED;
    hash2(text, SEED_A, SEED_B);
    hashes = [HASHED[0], HASHED[1]];
    HASHED[0] = a;
    HASHED[1] = b;
    // (A copy of the text: a slice would keep its line's piece of the input alive for the run.)
    if (rules.predicateHashes.size < 10_000) rules.predicateHashes.set(detachedString(text), hashes);
  }
  return hashes;
}
