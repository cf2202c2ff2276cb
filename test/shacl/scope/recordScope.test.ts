import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupRecords } from '../../../src/group/groupRecords.js';
import { RecordValidator } from '../../../src/shacl/RecordValidator.js';
import { CopiesTold, ScopeCheck } from '../../../src/shacl/scope/recordScope.js';
import type { RecordText } from '../../../src/group/RecordText.js';
import { serializerFor } from '../../../src/serialize/serializers.js';
import { fixtureQuads } from '../shapeCases.js';

const { namedNode, literal, quad } = DataFactory;
const SCHEMA = 'http://schema.org/';
const FULL = 'https://doi.org/10.5555/full-1';
const JOURNAL = 'https://w3id.org/scholarly-rdf/journal/11306';

let shapes: RecordValidator['shapes'];
beforeAll(async () => {
  shapes = (await RecordValidator.create()).shapes;
});

/** The records of some quads, as validate groups them. */
async function recordsOf(quads: RDF.Quad[]): Promise<{ key: string | undefined; quads: RDF.Quad[] }[]> {
  const out: { key: string | undefined; quads: RDF.Quad[] }[] = [];
  for await (const g of groupRecords(quads)) out.push(g);
  return out;
}

/** The scope check of some records, validated one by one (by a validator of its own: one per run). */
async function check(records: { key: string | undefined; quads: RDF.Quad[] }[]): Promise<ScopeCheck> {
  const validator = await RecordValidator.create({ shapes, checkScope: true });
  const scope = new ScopeCheck();
  const outcomes = await validator.validateRecords(records.map((r) => r.quads));
  outcomes.forEach((o, i) => scope.add(o.scope, records[i]!.key));
  return scope;
}

/** The full records with some quads changed. */
function full(edit: (quads: RDF.Quad[]) => RDF.Quad[] = (q) => q): RDF.Quad[] {
  return edit(fixtureQuads('full-records.ttl'));
}

describe('recordScopeOf and ScopeCheck: is each record enough for the shapes?', () => {
  it("finds the toolkit's records self-contained, and fingerprints their shared nodes", async () => {
    const records = await recordsOf(full());
    const validator = await RecordValidator.create({ shapes, checkScope: true });
    const [outcome] = await validator.validateRecords([records[0]!.quads]);
    // Told once: the same record again tells nothing.
    expect((await validator.validateRecords([records[0]!.quads]))[0]!.scope).toBeUndefined();
    expect(outcome!.scope?.beyond).toBeUndefined();
    expect(outcome!.scope?.shared?.map(([, , iri]) => iri)).toEqual(
      expect.arrayContaining([JOURNAL, 'https://orcid.org/0000-0002-1825-0097']),
    );
    expect((await check(records)).exact).toBe(true);
  });

  it("notices a record that names another record's node through a predicate the shapes read", async () => {
    const other = 'https://w3id.org/scholarly-rdf/doi/10.5555/chapter-1#author-x';
    const scope = await check(
      await recordsOf(full((q) => [...q, quad(namedNode(FULL), namedNode(`${SCHEMA}author`), namedNode(other))])),
    );
    expect(scope.exact).toBe(false);
    expect(scope.reasons[0]).toMatch(
      /^record 10\.5555\/full-1: .*schema\.org\/author> <.*#author-x>: a node of record 10\.5555\/chapter-1/,
    );
  });

  it('notices copies of a shared node that differ in what the shapes count (ISSNs), not in what they do not (names)', async () => {
    // A third record with the same journal, written after the others.
    const third = 'https://doi.org/10.5555/third';
    const base = [
      quad(namedNode(third), namedNode('http://purl.org/ontology/bibo/doi'), literal('10.5555/third')),
      quad(namedNode(third), namedNode(`${SCHEMA}isPartOf`), namedNode(JOURNAL)),
      quad(
        namedNode(JOURNAL),
        namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        namedNode(`${SCHEMA}Periodical`),
      ),
      quad(
        namedNode(JOURNAL),
        namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        namedNode('http://purl.org/ontology/bibo/Journal'),
      ),
    ];
    const journal = full().filter((q) => q.subject.value === JOURNAL && !base.some((b) => b.equals(q)));
    const sameCopy = await check(await recordsOf(full((q) => [...q, ...base, ...journal])));
    expect(sameCopy.exact).toBe(true);
    const renamed = journal.map((q) =>
      q.predicate.value === `${SCHEMA}name` ? quad(q.subject, q.predicate, literal('Metabolomics (Springer)')) : q,
    );
    expect((await check(await recordsOf(full((q) => [...q, ...base, ...renamed])))).exact).toBe(true);
    const otherIssn = journal.map((q) =>
      q.predicate.value === `${SCHEMA}issn` && q.object.value === '1573-3890'
        ? quad(q.subject, q.predicate, literal('1234-5679'))
        : q,
    );
    const differs = await check(await recordsOf(full((q) => [...q, ...base, ...otherIssn])));
    expect(differs.exact).toBe(false);
    expect(differs.reasons[0]).toBe(
      `record 10.5555/third: <${JOURNAL}> is written differently here than in an earlier record (what the shapes count or compare)`,
    );
  });

  it("notices copies of a shared node that differ only in a literal's language tag, datatype or kind", async () => {
    const third = 'https://doi.org/10.5555/third';
    const base = [
      quad(namedNode(third), namedNode('http://purl.org/ontology/bibo/doi'), literal('10.5555/third')),
      quad(namedNode(third), namedNode(`${SCHEMA}isPartOf`), namedNode(JOURNAL)),
    ];
    const journal = full().filter((q) => q.subject.value === JOURNAL);
    const issn = (object: (value: string) => RDF.Quad_Object) =>
      journal.map((q) =>
        q.predicate.value === `${SCHEMA}issn` && q.object.value === '1573-3890'
          ? quad(q.subject, q.predicate, object(q.object.value))
          : q,
      );
    expect((await check(await recordsOf(full((q) => [...q, ...base, ...journal])))).exact).toBe(true);
    for (const other of [
      issn((v) => literal(v, 'en')),
      issn((v) => literal(v, namedNode('http://www.w3.org/2001/XMLSchema#token'))),
      issn((v) => namedNode(v)),
    ])
      expect((await check(await recordsOf(full((q) => [...q, ...base, ...other])))).exact).toBe(false);
  });

  it('notices a record that names a shared node without its triples (a dump that writes shared nodes once)', async () => {
    const records = await recordsOf(
      full((q) => q.filter((x) => x.subject.value !== JOURNAL && !x.subject.value.startsWith(`${JOURNAL}/`))),
    );
    const scope = await check(records.slice(0, 1));
    expect(scope.reasons[0]).toMatch(/names <.*issue\/9> \(<http:\/\/schema\.org\/isPartOf>\) without its triples/);
  });

  it("notices a result on a shared node that another record's copy could undo (a lower bound)", async () => {
    const records = await recordsOf(
      full((q) =>
        q.filter((x) => !(x.subject.value.endsWith('/publisher/springer-us') && x.predicate.value === `${SCHEMA}name`)),
      ),
    );
    const scope = await check(records);
    expect(scope.reasons.join('\n')).toMatch(
      /a result \(sh:MinCountConstraintComponent\) on <https:\/\/w3id\.org\/scholarly-rdf\/publisher\/springer-us>, which other records may describe too/,
    );
  });

  it('notices rdfs:subClassOf in the data and data that types a shape', async () => {
    const sub = quad(
      namedNode('urn:x:Sub'),
      namedNode('http://www.w3.org/2000/01/rdf-schema#subClassOf'),
      namedNode(`${SCHEMA}Person`),
    );
    expect((await check(await recordsOf(full((q) => [...q, sub])))).reasons.join('\n')).toMatch(
      /rdfs:subClassOf in the data/,
    );
    const typed = quad(
      namedNode('https://w3id.org/scholarly-rdf/shapes#WorkShape'),
      namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
      namedNode('http://www.w3.org/2000/01/rdf-schema#Class'),
    );
    expect((await check([{ key: undefined, quads: [typed] }])).reasons.join('\n')).toMatch(
      /the data gives <.*WorkShape>, a shape, a type/,
    );
  });

  it('is computed only when asked (checkScope)', async () => {
    const plain = await RecordValidator.create();
    const [outcome] = await plain.validateRecords([(await recordsOf(full()))[0]!.quads]);
    expect(outcome!.scope).toBeUndefined();
  });

  it('forgets the copies told since a journal began when it is rolled back (a batch that fails is told again)', () => {
    const copies = new CopiesTold();
    expect(copies.unseen({ shared: [[1, 10, 'urn:a']] })?.shared).toHaveLength(1);
    const both = { shared: [[1, 11, 'urn:a'] as const, [2, 20, 'urn:b'] as const] };
    const tell = () => copies.unseen({ shared: both.shared.map((c) => [...c]) })?.shared;
    const journal = copies.journal();
    expect(tell()).toHaveLength(2);
    journal.rollback();
    journal.close();
    // As before the journal: a told once (10), b never.
    expect(copies.unseen({ shared: [[1, 10, 'urn:a']] })).toBeUndefined();
    expect(tell()).toHaveLength(2);
  });

  it('tells the shared copies of records again after their batch failed on a later syntax error (validateTexts)', async () => {
    const records = await recordsOf(full());
    const text = serializerFor('ntriples').createWriter().write(records[0]!.quads);
    const good: RecordText = { format: 'ntriples', source: 'x', text, lines: text.split('\n').map((_, i) => i + 1) };
    const bad: RecordText = { format: 'ntriples', source: 'x', text: '<urn:x:s> <urn:x:p> .\n', lines: [1] };
    const validator = await RecordValidator.create({ shapes, checkScope: true });
    const alone = await (await RecordValidator.create({ shapes, checkScope: true })).validateTexts([good]);
    expect(alone[0]!.scope?.shared?.length).toBeGreaterThan(0);
    await expect(validator.validateTexts([good, bad])).rejects.toThrow(/invalid N-Triples/);
    expect(await validator.validateTexts([good])).toEqual(alone);
  });
});
