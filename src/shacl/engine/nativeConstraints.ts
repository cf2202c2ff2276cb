/**
 * Native (JavaScript) implementations of the SPARQL constraints of the shipped
 * shapes, stated here beside the shapes they implement (shapes/*.ttl).
 *
 * The shapes state these checks as SHACL-SPARQL (`sh:sparql`), which Apache
 * Jena runs as written. Running them through shacl-engine's SPARQL plugin
 * (Comunica) would cost milliseconds per record, so the engine of our own runs
 * these functions instead: each is identified by the IRI of the constraint
 * node, returns the rows the SELECT query returns, and is reported with the
 * same shape, path and value. Tests run both and compare.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { LANGUAGE_TAG } from '../../rdf/languageTag.js';
import { termKey } from './TermInterner.js';
import { isValidOrcid, orcidCheckCharacter } from '../../record/orcid.js';
import { NS } from '../../rdf/namespaces.js';

export { isValidOrcid, orcidCheckCharacter };

const RDF_NS = NS.rdf;
const XSD = NS.xsd;
/** schema.org in both namespaces: dumps written with `--schema-https` are validated with the shapes rewritten to https (loadShapes). */
const SCHEMA_NAMESPACES = [NS.schemaHttp, NS.schemaHttps];
const BIBO = NS.bibo;
/** Namespace of the shapes' IRIs. */
export const SHAPES_NS = 'https://w3id.org/scholarly-rdf/shapes#';

const { namedNode } = DataFactory;
const rdfFirst = namedNode(`${RDF_NS}first`);
const rdfRest = namedNode(`${RDF_NS}rest`);
const rdfNil = namedNode(`${RDF_NS}nil`);
const authorList = namedNode(`${BIBO}authorList`);
const sameAs = SCHEMA_NAMESPACES.map((ns) => namedNode(`${ns}sameAs`));
const biboDoi = namedNode(`${BIBO}doi`);
const schemaIdentifier = SCHEMA_NAMESPACES.map((ns) => namedNode(`${ns}identifier`));

/** One row of a SPARQL constraint's SELECT: the value, the path, and the other variables for the message. */
export interface ConstraintRow {
  path?: RDF.NamedNode;
  value: RDF.Term;
  bindings?: Record<string, string>;
}

/** A native constraint: the rows its SPARQL query would return for one focus node. */
export type NativeConstraint = (focus: RDF.Term, dataset: RDF.DatasetCore) => ConstraintRow[];

const ORCID_IRI = /^https:\/\/orcid\.org\/[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]$/;

/**
 * A dataset that gives a subject's triples without building quads (the engine's record index): each subject's
 * distinct triples as predicate, object pairs.
 */
export interface PairsBySubject {
  pairsOf(subject: RDF.Term): readonly RDF.Term[];
}

function hasPairs(dataset: RDF.DatasetCore | PairsBySubject): dataset is PairsBySubject {
  return typeof (dataset as Partial<PairsBySubject>).pairsOf === 'function';
}

/** The distinct objects of `subject`'s triples of `predicate`. */
function objects(dataset: RDF.DatasetCore, subject: RDF.Term, predicate: RDF.NamedNode): readonly RDF.Term[] {
  if (hasPairs(dataset)) {
    // Distinct triples: distinct objects (counted, then copied into a list of that length).
    const pairs = dataset.pairsOf(subject);
    const iri = predicate.value;
    let count = 0;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i]!.value === iri) count++;
    if (count === 0) return NONE;
    const out = new Array<RDF.Term>(count);
    for (let i = 0, n = 0; n < count; i += 2) if (pairs[i]!.value === iri) out[n++] = pairs[i + 1]!;
    return out;
  }
  const out: RDF.Term[] = [];
  for (const q of dataset.match(subject as RDF.Quad_Subject, predicate)) out.push(q.object);
  return uniqueTerms(out);
}

const NONE: readonly RDF.Term[] = [];

/** `subject`'s triples as predicate, object pairs (a flat list: predicate, object, predicate, object...). */
function pairsOf(dataset: RDF.DatasetCore, subject: RDF.Term): readonly RDF.Term[] {
  if (hasPairs(dataset)) return dataset.pairsOf(subject);
  const pairs: RDF.Term[] = [];
  for (const q of dataset.match(subject as RDF.Quad_Subject)) pairs.push(q.predicate, q.object);
  return pairs;
}

/**
 * What tells terms apart in a dataset: the term itself in the engine's record index (its terms are interned: one
 * object per term, no key string made), else its key.
 */
function keyerOf(dataset: RDF.DatasetCore): (term: RDF.Term) => unknown {
  return hasPairs(dataset) ? identity : termKey;
}

const identity = (term: RDF.Term): unknown => term;

function uniqueTerms(terms: Iterable<RDF.Term>): RDF.Term[] {
  const seen = new Map<string, RDF.Term>();
  for (const t of terms) seen.set(termKey(t), t);
  return [...seen.values()];
}

/** srsh:AuthorListOrderConstraint: the list ends in rdf:nil and has no person twice. */
export const authorListOrder: NativeConstraint = (focus, dataset) => {
  const rows: ConstraintRow[] = [];
  const keyOf = keyerOf(dataset);
  for (const head of objects(dataset, focus, authorList)) {
    // Every node reachable along rdf:rest (head included).
    const reach: RDF.Term[] = [];
    const seen = new Set<unknown>();
    const todo = [head];
    while (todo.length) {
      const node = todo.pop()!;
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      reach.push(node);
      if (node.termType !== 'Literal') todo.push(...objects(dataset, node, rdfRest));
    }
    const problem = (value: RDF.Term, text: string) =>
      rows.push({ path: authorList, value, bindings: { problem: text } });
    if (!reach.some((n) => n.equals(rdfNil))) problem(head, 'the list does not end in rdf:nil');
    const cellsOf = new Map<unknown, { value: RDF.Term; cells: Set<unknown> }>();
    for (const cell of reach) {
      if (cell.termType === 'Literal') continue;
      for (const member of objects(dataset, cell, rdfFirst)) {
        const key = keyOf(member);
        const entry = cellsOf.get(key) ?? { value: member, cells: new Set<unknown>() };
        entry.cells.add(keyOf(cell));
        cellsOf.set(key, entry);
      }
    }
    for (const { value, cells } of cellsOf.values()) {
      if (cells.size > 1) problem(value, 'a person appears more than once in the list');
    }
  }
  return rows;
};

/** srsh:OrcidCheckDigitConstraint: an ORCID IRI (the focus node itself, or in schema:sameAs) has the right check character. */
export const orcidCheckDigit: NativeConstraint = (focus, dataset) => {
  const rows: ConstraintRow[] = [];
  const check = (value: RDF.Term, path: RDF.NamedNode | undefined) => {
    if (value.termType !== 'NamedNode' || !ORCID_IRI.test(value.value)) return;
    const id = value.value.slice('https://orcid.org/'.length);
    const expected = orcidCheckCharacter(id);
    if (expected !== id[id.length - 1]) rows.push({ ...(path ? { path } : {}), value, bindings: { expected } });
  };
  for (const path of sameAs) for (const value of objects(dataset, focus, path)) check(value, path);
  check(focus, undefined);
  return rows;
};

/** srsh:LanguageTagConstraint: every language tag of the focus node's literals is well formed. */
export const languageTags: NativeConstraint = (focus, dataset) => {
  const rows: ConstraintRow[] = [];
  let seen: Set<string> | undefined;
  const pairs = pairsOf(dataset, focus);
  for (let i = 0; i < pairs.length; i += 2) {
    const predicate = pairs[i]!;
    const o = pairs[i + 1]!;
    if (o.termType !== 'Literal' || !o.language || LANGUAGE_TAG.test(o.language)) continue;
    const key = `${predicate.value}|${o.value}|${o.language}`;
    if (seen?.has(key)) continue;
    (seen ??= new Set()).add(key);
    rows.push({ path: predicate as RDF.NamedNode, value: o });
  }
  return rows;
};

/** DOIs whose characters the work IRI carries as they are (the mapper percent-encodes others). */
const PLAIN_DOI = /^[A-Za-z0-9._;()/:-]+$/;

/**
 * srsh:DoiAgreementConstraint: the work IRI is https://doi.org/ + its bibo:doi (for DOIs
 * written as they are), and its schema:identifier is "doi:" + its bibo:doi; DOIs compared
 * case-insensitively, as DOIs are.
 */
export const doiAgreement: NativeConstraint = (focus, dataset) => {
  const rows: ConstraintRow[] = [];
  if (focus.termType !== 'NamedNode') return rows;
  for (const doi of objects(dataset, focus, biboDoi)) {
    if (doi.termType !== 'Literal') continue;
    if (PLAIN_DOI.test(doi.value) && focus.value.toLowerCase() !== `https://doi.org/${doi.value}`.toLowerCase()) {
      rows.push({
        path: biboDoi,
        value: doi,
        bindings: { problem: "the work's IRI is not https://doi.org/ followed by its bibo:doi" },
      });
    }
    for (const path of schemaIdentifier) {
      for (const id of objects(dataset, focus, path)) {
        if (id.value.toLowerCase() !== `doi:${doi.value}`.toLowerCase()) {
          rows.push({
            path,
            value: id,
            bindings: { problem: 'schema:identifier is not "doi:" followed by its bibo:doi' },
          });
        }
      }
    }
  }
  return rows;
};

const SR = NS.sr;
const authorship = namedNode(`${SR}authorship`);
const schemaPosition = SCHEMA_NAMESPACES.map((ns) => namedNode(`${ns}position`));

/**
 * srsh:AuthorPositionsConstraint: the integer schema:position values of the focus's sr:authorship nodes run
 * 1..n: no two authorships share a position, and every position above 1 has the one before it.
 */
export const authorPositions: NativeConstraint = (focus, dataset) => {
  const rows: ConstraintRow[] = [];
  const keyOf = keyerOf(dataset);
  // Each authorship's integer positions (values of another datatype are srsh:Authorship-position's).
  const holders = new Map<number, { value: RDF.Term; nodes: Set<unknown> }>();
  for (const node of objects(dataset, focus, authorship)) {
    if (node.termType === 'Literal') continue;
    for (const p of schemaPosition) {
      for (const value of objects(dataset, node, p)) {
        if (
          value.termType !== 'Literal' ||
          value.datatype.value !== `${XSD}integer` ||
          !/^[+-]?[0-9]+$/.test(value.value)
        )
          continue;
        const n = Number(value.value);
        const entry = holders.get(n) ?? { value, nodes: new Set<unknown>() };
        entry.nodes.add(keyOf(node));
        holders.set(n, entry);
      }
    }
  }
  for (const [n, { value, nodes }] of holders) {
    if (nodes.size > 1)
      rows.push({ path: authorship, value, bindings: { problem: 'two authors have the same position' } });
    if (n > 1 && !holders.has(n - 1))
      rows.push({ path: authorship, value, bindings: { problem: 'a position is missing before this one' } });
  }
  return rows;
};

/** The native constraints by the IRI of their `sh:SPARQLConstraint` node. */
export const NATIVE_CONSTRAINTS: ReadonlyMap<string, NativeConstraint> = new Map([
  [`${SHAPES_NS}AuthorListOrderConstraint`, authorListOrder],
  [`${SHAPES_NS}OrcidCheckDigitConstraint`, orcidCheckDigit],
  [`${SHAPES_NS}LanguageTagConstraint`, languageTags],
  [`${SHAPES_NS}DoiAgreementConstraint`, doiAgreement],
  [`${SHAPES_NS}AuthorPositionsConstraint`, authorPositions],
]);

/** What a native constraint reads around its focus node (IRIs of predicates; see analyseShapes). */
export interface NativeReads {
  /** Predicates of the focus node whose values it counts or compares with each other. */
  upper: readonly string[];
  /** Predicates whose values' own triples it reads (the cells of a list). */
  through: readonly string[];
  /** Predicates whose values it checks one at a time. */
  perValue: readonly string[];
}

const both = (local: string) => SCHEMA_NAMESPACES.map((ns) => `${ns}${local}`);

/** {@link NativeReads} of each native constraint, by the IRI of its `sh:SPARQLConstraint` node. */
export const NATIVE_READS: ReadonlyMap<string, NativeReads> = new Map([
  [
    `${SHAPES_NS}AuthorListOrderConstraint`,
    { upper: [`${BIBO}authorList`], through: [`${BIBO}authorList`, `${RDF_NS}rest`, `${RDF_NS}first`], perValue: [] },
  ],
  [`${SHAPES_NS}OrcidCheckDigitConstraint`, { upper: [], through: [], perValue: both('sameAs') }],
  // Every predicate of the focus, one literal at a time: nothing that another copy of the node could change.
  [`${SHAPES_NS}LanguageTagConstraint`, { upper: [], through: [], perValue: [] }],
  [`${SHAPES_NS}DoiAgreementConstraint`, { upper: [`${BIBO}doi`, ...both('identifier')], through: [], perValue: [] }],
  [
    `${SHAPES_NS}AuthorPositionsConstraint`,
    { upper: [`${SR}authorship`], through: [`${SR}authorship`, ...both('position')], perValue: [] },
  ],
]);

/** Fills `{?var}` and `{$var}` in a SHACL message. */
export function fillMessage(template: string, vars: Record<string, string>): string {
  return template.replace(/\{[?$]([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => vars[name] ?? all);
}
