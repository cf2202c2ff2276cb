/**
 * Our output merged with real RDF of other sources for the same works (Crossref's, Springer Nature SciGraph's,
 * ORCID's: test/fixtures/merge/, sources in its README) is one node per DOI, journal and ORCID person under the
 * owl:sameAs closure. The other sources state some identities otherwise (SciGraph: `schema:sameAs` a doi.org
 * IRI, ISSNs as `schema:issn` values; Crossref's RDF/XML: `owl:sameAs` written as literals): the bridge of
 * docs/mapping.md reads them as `owl:sameAs` first, as a user merging these sources would.
 */
import { readFileSync } from 'node:fs';
import type * as RDF from '@rdfjs/types';
import { QueryEngine } from '@comunica/query-sparql-rdfjs-lite';
import { Parser, Store } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { parseRdfXml } from '../helpers/rdf.js';
import { nodesUnderSameAs, select } from '../helpers/sameAs.js';

const DIR = new URL('../fixtures/merge/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');

/** The bridge of docs/mapping.md, *Identities that merge*. */
const BRIDGE = `
  PREFIX owl: <http://www.w3.org/2002/07/owl#>
  PREFIX schema: <http://schema.org/>
  CONSTRUCT { ?x owl:sameAs ?y } WHERE {
    { ?x schema:sameAs ?y . FILTER(isIRI(?y) && STRSTARTS(STR(?y), "https://doi.org/")) }
    UNION { ?x schema:issn ?v . FILTER(isLiteral(?v)) BIND(IRI(CONCAT("urn:issn:", STR(?v))) AS ?y) }
    UNION { ?x owl:sameAs ?l . FILTER(isLiteral(?l)) BIND(IRI(STR(?l)) AS ?y) }
  }`;

const OURS = read('records.jsonl')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record<string, unknown>);
let merged: RDF.Quad[];
let ours: RDF.Quad[];

beforeAll(async () => {
  ours = OURS.flatMap((r) => mapRecord(normalizeRecord(r)).quads);
  const others = [
    ...(await parseRdfXml(read('crossref-10.1007-s002619900002.rdf'))),
    ...new Parser({ format: 'application/n-triples' }).parse(read('scigraph-10.1007-s00606-016-1316-4.nt')),
    ...new Parser({ format: 'application/n-triples' }).parse(read('orcid-0000-0002-2168-0514.nt')),
  ];
  const union = [...ours, ...others];
  const bridge = await (await new QueryEngine().queryQuads(BRIDGE, { sources: [new Store(union)] })).toArray();
  merged = [...union, ...bridge];
});

/** The least IRI each node of `nodes` is owl:sameAs (directly or not): one value for one thing. */
async function representatives(given: readonly string[]): Promise<Set<string>> {
  const nodes = [...new Set(given)];
  const values = nodes.map((n) => `<${n}>`).join(' ');
  const rows = await select(
    merged,
    `
    PREFIX owl: <http://www.w3.org/2002/07/owl#>
    SELECT ?x (MIN(STR(?y)) AS ?rep) WHERE { VALUES ?x { ${values} } ?x (owl:sameAs|^owl:sameAs)* ?y } GROUP BY ?x`,
  );
  expect(rows, JSON.stringify(rows)).toHaveLength(nodes.length);
  return new Set(rows.map((r) => r.rep));
}

describe('our dump merged with Crossref, SciGraph and ORCID RDF of the same works', () => {
  it("is one node per DOI: our work, Crossref's dx.doi.org node, SciGraph's pub node, ORCID's doi.org node", async () => {
    const cases: [string, string[]][] = [
      ['10.1007/s002619900002', ['http://dx.doi.org/10.1007/s002619900002']],
      ['10.1007/s00606-016-1316-4', ['http://scigraph.springernature.com/pub.10.1007/s00606-016-1316-4']],
      // The service spells it with upper-case letters; SciGraph lower-cases DOIs.
      ['10.1007/BF00037152', ['http://scigraph.springernature.com/pub.10.1007/bf00037152']],
      ['10.1186/s40529-017-0182-x', ['https://doi.org/10.1186/s40529-017-0182-x']],
    ];
    for (const [doi, theirs] of cases) {
      for (const node of theirs)
        expect(
          merged.some((q) => q.subject.value === node),
          node,
        ).toBe(true);
      expect(await representatives([`https://doi.org/${doi}`, ...theirs]), doi).toHaveProperty('size', 1);
    }
    // Different works stay apart.
    expect((await representatives(cases.map(([doi]) => `https://doi.org/${doi}`))).size).toBe(cases.length);
  });

  it("is one node per journal: ours, Crossref's id.crossref.org/issn node, SciGraph's journal node", async () => {
    const abdominal = ['https://w3id.org/scholarly-rdf/journal/261', 'http://id.crossref.org/issn/0942-8925'];
    const pse = ['https://w3id.org/scholarly-rdf/journal/606', 'http://scigraph.springernature.com/journal.1022987'];
    expect((await representatives(abdominal)).size).toBe(1);
    expect((await representatives(pse)).size).toBe(1);
    // Every journal of the union, whoever typed it: Abdominal Imaging, Plant Systematics and Evolution, Botanical Studies.
    const journals = new Set([
      ...(
        await select(
          merged,
          'SELECT DISTINCT ?j WHERE { { ?j a <http://purl.org/ontology/bibo/Journal> } UNION { ?j a <http://schema.org/Periodical> } }',
        )
      ).map((r) => r.j),
    ]);
    expect((await representatives([...journals])).size).toBe(3);
    expect(await nodesUnderSameAs(ours, 'http://purl.org/ontology/bibo/Journal')).toBe(3);
  });

  it("is one node per ORCID person: ours is ORCID's own IRI, and owl:sameAs the http form Crossref uses", async () => {
    const iri = 'https://orcid.org/0000-0002-2168-0514';
    expect(
      merged.some(
        (q) =>
          q.subject.value === iri &&
          q.predicate.value === 'http://schema.org/familyName' &&
          q.object.value === 'Hughes',
      ),
    ).toBe(true);
    const people = (
      await select(
        merged,
        `SELECT DISTINCT ?p WHERE { ?p a <http://schema.org/Person> . FILTER(CONTAINS(STR(?p), "0000-0002-2168-0514")) }`,
      )
    ).map((r) => r.p);
    expect(people).toEqual([iri]);
    expect((await representatives([iri, 'http://orcid.org/0000-0002-2168-0514'])).size).toBe(1);
    // The work of the person in ORCID's RDF is our work.
    const works = await select(
      merged,
      `SELECT ?w WHERE { ?w <http://schema.org/creator> <${iri}> . FILTER(CONTAINS(STR(?w), "s40529-017-0182-x")) }`,
    );
    expect((await representatives([works[0]!.w, 'https://doi.org/10.1186/s40529-017-0182-x'])).size).toBe(1);
  });
});
