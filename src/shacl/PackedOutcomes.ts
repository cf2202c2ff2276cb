import { DataFactory } from 'n3';
import type { Severity, ValidationOutcome, ValidationResult } from './reports/ValidationResult.js';
import { decodeTerm, encodeTerm, type EncodedTerm } from './reports/termCodec.js';
import type { RecordScope } from './scope/recordScope.js';

/** A validation result in a form workers can post. */
export interface EncodedResult {
  f: EncodedTerm;
  s: EncodedTerm;
  p?: string;
  rp?: { p: string[]; i: boolean; q: string }[];
  sev: Severity;
  m: string;
  v?: EncodedTerm;
  c: string;
  sc?: EncodedTerm;
}

/**
 * Outcomes as a worker posts them ({@link packOutcomes}): their numbers in one transferable `Float64Array`, their
 * strings in one array, and the few results. (Posted as objects, a part's outcomes cost the reading thread about
 * 100 K instructions a record to deserialise, most of them for the copies of shared nodes in their scope.)
 */
export interface PackedOutcomes {
  /**
   * For each outcome, {@link FIELDS} numbers (flags: {@link CONFORMS}, {@link SCOPE}, {@link SHARED},
   * {@link BEYOND}; violations, warnings, infos, others; shared nodes, reasons beyond the record, results), then
   * the hash and fingerprint of each of its shared nodes.
   */
  numbers: Float64Array;
  /** The IRIs of the shared nodes and the reasons beyond the record, outcome by outcome. */
  strings: string[];
  /** The results of every outcome, in order. */
  results: EncodedResult[];
}

const FIELDS = 8;
const CONFORMS = 1;
const SCOPE = 2;
const SHARED = 4;
const BEYOND = 8;

/** Packs outcomes for `postMessage` (transfer `numbers.buffer`). */
export function packOutcomes(outcomes: readonly ValidationOutcome[]): PackedOutcomes {
  let length = outcomes.length * FIELDS;
  for (const o of outcomes) length += 2 * (o.scope?.shared?.length ?? 0);
  const numbers = new Float64Array(length);
  const strings: string[] = [];
  const results: EncodedResult[] = [];
  let at = 0;
  for (const o of outcomes) {
    const scope = o.scope;
    const shared = scope?.shared;
    const beyond = scope?.beyond;
    numbers[at] = (o.conforms ? CONFORMS : 0) | (scope ? SCOPE : 0) | (shared ? SHARED : 0) | (beyond ? BEYOND : 0);
    numbers[at + 1] = o.violations;
    numbers[at + 2] = o.warnings;
    numbers[at + 3] = o.infos ?? 0;
    numbers[at + 4] = o.others ?? 0;
    numbers[at + 5] = shared?.length ?? 0;
    numbers[at + 6] = beyond?.length ?? 0;
    numbers[at + 7] = o.results.length;
    at += FIELDS;
    if (shared)
      for (const [hash, fingerprint, iri] of shared) {
        numbers[at++] = hash;
        numbers[at++] = fingerprint;
        strings.push(iri);
      }
    if (beyond) for (const reason of beyond) strings.push(reason);
    for (const r of o.results) results.push(encodeResult(r));
  }
  return { numbers, strings, results };
}

/** The outcomes of {@link packOutcomes}, as they were (terms made with n3's `DataFactory`). */
export function unpackOutcomes(packed: PackedOutcomes): ValidationOutcome[] {
  const { numbers, strings, results } = packed;
  const out: ValidationOutcome[] = [];
  let at = 0;
  let string = 0;
  let result = 0;
  while (at < numbers.length) {
    const flags = numbers[at]!;
    const infos = numbers[at + 3]!;
    const others = numbers[at + 4]!;
    const sharedCount = numbers[at + 5]!;
    const beyondCount = numbers[at + 6]!;
    const resultCount = numbers[at + 7]!;
    // The keys in the order of a ValidationOutcome's fields (what prints an outcome prints the same text).
    const outcome = {
      conforms: (flags & CONFORMS) !== 0,
      violations: numbers[at + 1]!,
      warnings: numbers[at + 2]!,
    } as ValidationOutcome;
    at += FIELDS;
    if (infos) outcome.infos = infos;
    if (others) outcome.others = others;
    if (flags & SCOPE) {
      // Its keys in the order `recordScopeOf` gives them (the reasons first), its strings in the order packed.
      const scope: RecordScope = {};
      let shared: [number, number, string][] | undefined;
      if (flags & SHARED) {
        shared = [];
        for (let i = 0; i < sharedCount; i++, at += 2)
          shared.push([numbers[at]!, numbers[at + 1]!, strings[string++]!]);
      }
      if (flags & BEYOND) scope.beyond = strings.slice(string, (string += beyondCount));
      if (shared) scope.shared = shared;
      outcome.scope = scope;
    }
    const decoded: ValidationResult[] = [];
    for (let i = 0; i < resultCount; i++) decoded.push(decodeResult(results[result++]!));
    outcome.results = decoded;
    out.push(outcome);
  }
  return out;
}

/** Encodes a result for `postMessage`. */
export function encodeResult(r: ValidationResult): EncodedResult {
  return {
    f: encodeTerm(r.focusNode),
    s: encodeTerm(r.shape),
    ...(r.path !== undefined ? { p: r.path } : {}),
    ...(r.resultPath
      ? { rp: r.resultPath.map((st) => ({ p: st.predicates.map((x) => x.value), i: st.inverse, q: st.quantifier })) }
      : {}),
    sev: r.severity,
    m: r.message,
    ...(r.value ? { v: encodeTerm(r.value) } : {}),
    c: r.constraintComponent.value,
    ...(r.sourceConstraint ? { sc: encodeTerm(r.sourceConstraint) } : {}),
  };
}

function decodeResult(r: EncodedResult): ValidationResult {
  return {
    focusNode: decodeTerm(r.f),
    shape: decodeTerm(r.s),
    path: r.p,
    resultPath: r.rp?.map((st) => ({
      predicates: st.p.map((x) => DataFactory.namedNode(x)),
      inverse: st.i,
      quantifier: st.q as 'one',
    })),
    severity: r.sev,
    message: r.m,
    value: r.v === undefined ? undefined : decodeTerm(r.v),
    constraintComponent: DataFactory.namedNode(r.c),
    sourceConstraint: r.sc === undefined ? undefined : decodeTerm(r.sc),
  };
}
