import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { JOURNALS } from '../../src/sample/sampleVenues.js';
import { nodesAsWritten, nodesUnderSameAs, select } from '../helpers/sameAs.js';

const JOURNAL = 'http://purl.org/ontology/bibo/Journal';
const SERVICE = fileURLToPath(new URL('../fixtures/service/', import.meta.url));

type Key = 'journalId' | 'issn' | 'eIssn' | 'name';
const KEYS: readonly Key[] = ['journalId', 'issn', 'eIssn', 'name'];

/** Every non-empty combination of a journal's keys. */
function combinations(): Key[][] {
  const out: Key[][] = [];
  for (let mask = 1; mask < 1 << KEYS.length; mask++) out.push(KEYS.filter((_, i) => mask & (1 << i)));
  return out;
}

/** A record of an article of journal `j` that carries only the keys `keys` (name: its name and publisher). */
function article(j: (typeof JOURNALS)[number], keys: readonly Key[], n: number): Record<string, unknown> {
  const r: Record<string, unknown> = {
    doi: `10.1007/s${j.id}-${n}`,
    title: `Article ${n} of ${j.name}`,
    contentType: 'Article',
    publicationType: 'Journal',
    volume: '3',
  };
  if (keys.includes('journalId')) r.journalId = j.id;
  if (keys.includes('issn') && j.issn) r.issn = j.issn;
  if (keys.includes('eIssn')) r.eIssn = j.eIssn;
  if (keys.includes('name')) {
    r.publicationName = j.name;
    r.publisher = j.publisher;
  }
  return r;
}

function quadsOf(records: readonly unknown[]): RDF.Quad[] {
  return records.flatMap((r) => mapRecord(normalizeRecord(r)).quads);
}

/** The journal IRIs each record names (its work's schema:isPartOf chain ends at one), by DOI. */
function journalIris(records: readonly unknown[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of records) {
    const m = mapRecord(normalizeRecord(r));
    const journals = m.quads.filter((q) => q.object.value === JOURNAL).map((q) => q.subject.value);
    out.set(m.doi, journals);
  }
  return out;
}

describe('journal identity', () => {
  const journals = JOURNALS.slice(0, 6).concat(JOURNALS.filter((j) => !j.issn).slice(0, 2));
  const records = journals.flatMap((j, ji) => combinations().map((keys, i) => article(j, keys, ji * 100 + i)));

  it('gives one node per journal under owl:sameAs, whichever keys its records carry (every combination)', async () => {
    const quads = quadsOf(records);
    expect(await nodesUnderSameAs(quads, JOURNAL)).toBe(journals.length);
    // Without the closure a journal is one node per key: the links are what makes it one.
    expect(await nodesAsWritten(quads, JOURNAL)).toBeGreaterThan(journals.length);
  });

  it('keeps two journals apart that share no key', async () => {
    const [a, b] = [JOURNALS[0]!, JOURNALS[1]!];
    const quads = quadsOf([
      article(a, ['journalId', 'name'], 1),
      article(b, ['issn', 'name'], 2),
      article(b, ['eIssn'], 3),
    ]);
    // b's eIssn-only record is linked to nothing else of b: three nodes, never one.
    expect(await nodesUnderSameAs(quads, JOURNAL)).toBe(3);
  });

  it('joins a journal known by its name and publisher only to its keyed records (the book-shaped page)', async () => {
    const j = JOURNALS[2]!;
    const bookShaped = {
      ...article(j, ['name'], 1),
      printIsbn: '',
      electronicIsbn: '',
      publicationName: j.name.toUpperCase(),
    };
    const quads = quadsOf([
      bookShaped,
      article(j, ['name'], 2),
      article(j, ['journalId', 'issn', 'name'], 3),
      article(j, ['issn'], 4),
    ]);
    expect(await nodesUnderSameAs(quads, JOURNAL)).toBe(1);
  });

  it('mints the same journal IRIs in a later run over a subset, in another order', () => {
    const all = journalIris(records);
    const subset = records.filter((_, i) => i % 3 === 0).reverse();
    for (const [doi, iris] of journalIris(subset)) expect(iris).toEqual(all.get(doi));
  });

  it('counts the journals of the real pages (test/fixtures/service) as their distinct names', async () => {
    const raws: unknown[] = [];
    for (const file of readdirSync(SERVICE).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(`${SERVICE}${file}`, 'utf8')) as { records?: unknown[]; doi?: unknown };
      raws.push(...(Array.isArray(json.records) ? json.records : json.doi ? [json] : []));
    }
    const names = new Set(raws.map((r) => (r as { publicationName?: string }).publicationName).filter(Boolean));
    expect(names.size).toBeGreaterThanOrEqual(3);
    expect(await nodesUnderSameAs(quadsOf(raws), JOURNAL)).toBe(names.size);
  });
});

describe('author positions of the sample catalogue', () => {
  it('run 1..n for every work, one per schema:author, reachable in one triple pattern from the work', async () => {
    const { sampleCataloguePath } = await import('../../src/sample/sampleCatalogue.js');
    const lines = readFileSync(sampleCataloguePath(), 'utf8').split('\n').filter(Boolean);
    const quads = lines.flatMap((l) => mapRecord(normalizeRecord(JSON.parse(l))).quads);
    const rows = await select(
      quads,
      `
      PREFIX schema: <http://schema.org/>
      PREFIX sr: <https://w3id.org/scholarly-rdf/vocab#>
      SELECT ?w (COUNT(DISTINCT ?a) AS ?n) (MIN(?p) AS ?min) (MAX(?p) AS ?max) (COUNT(DISTINCT ?p) AS ?distinct) (COUNT(DISTINCT ?person) AS ?people)
      WHERE { ?w sr:authorship ?a . ?a schema:position ?p ; schema:item ?person } GROUP BY ?w`,
    );
    expect(rows.length).toBeGreaterThan(200);
    for (const r of rows) expect([r.min, r.max, r.distinct, r.people], r.w).toEqual(['1', r.n, r.n, r.n]);
    const authored = await select(
      quads,
      'SELECT (COUNT(DISTINCT ?w) AS ?n) WHERE { ?w <http://schema.org/author> ?p }',
    );
    expect(Number(authored[0]!.n)).toBe(rows.length);
  });
});
