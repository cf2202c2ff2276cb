/**
 * The shipped term (vocab/pagination.*): the same 10 triples in four formats,
 * each read with a parser other than ours, and the JSON-LD shaped as spec §4.3.
 */
import { readFileSync } from 'node:fs';
import jsonld from 'jsonld';
import { describe, expect, it } from 'vitest';
import { createDocumentLoader, toJsonldJsLoader } from '../../src/parse/documentLoader.js';
import { expectIsomorphic, parseNQuads, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';

const vocab = (file: string) => readFileSync(new URL(`../../vocab/${file}`, import.meta.url), 'utf8');
const S = 'http://schema.org/';

describe('vocab/pagination', () => {
  it('has the 10 triples of spec §2.6 in N-Triples', () => {
    const quads = parseNTriples(vocab('pagination.nt'));
    expect(quads).toHaveLength(10);
    expect(new Set(quads.map((q) => q.subject.value))).toEqual(new Set([`${S}pagination`]));
    const objects = (p: string) =>
      quads
        .filter((q) => q.predicate.value === p)
        .map((q) => q.object.value)
        .sort();
    expect(objects('http://www.w3.org/1999/02/22-rdf-syntax-ns#type')).toEqual([
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#Property',
    ]);
    expect(objects('http://www.w3.org/2000/01/rdf-schema#label')).toEqual(['pagination']);
    expect(objects('http://www.w3.org/2000/01/rdf-schema#comment')[0]).toMatch(
      /not separated into pageStart and pageEnd/,
    );
    expect(objects('http://www.w3.org/2002/07/owl#equivalentProperty')).toEqual([
      'http://purl.org/ontology/bibo/pages',
    ]);
    expect(objects(`${S}domainIncludes`)).toEqual([`${S}Article`, `${S}PublicationIssue`, `${S}PublicationVolume`]);
    expect(objects(`${S}rangeIncludes`)).toEqual([`${S}Text`]);
    expect(objects('http://purl.org/dc/terms/source')).toEqual([
      'http://www.w3.org/wiki/WebSchemas/SchemaDotOrgSources#source_bibex',
    ]);
    expect(objects('http://scigraph.springernature.com/ontologies/core/sdDataset')).toHaveLength(1);
  });

  it('is the same graph in Turtle, RDF/XML and JSON-LD (expanded offline with the shipped context)', async () => {
    const expected = parseNTriples(vocab('pagination.nt'));
    expectIsomorphic(parseTurtle(vocab('pagination.ttl')), expected, 'Turtle');
    expectIsomorphic(await parseRdfXml(vocab('pagination.rdf')), expected, 'RDF/XML');
    const nquads = (await jsonld.toRDF(JSON.parse(vocab('pagination.jsonld')), {
      format: 'application/n-quads',
      documentLoader: toJsonldJsLoader(createDocumentLoader()) as never,
      safe: true,
    } as never)) as unknown as string;
    expectIsomorphic(parseNQuads(nquads), expected, 'JSON-LD');
  });

  it('has the JSON-LD shape of spec §4.3: an array of one object with a @context, id, type, ...', () => {
    const doc = JSON.parse(vocab('pagination.jsonld')) as Record<string, unknown>[];
    expect(Array.isArray(doc)).toBe(true);
    expect(doc).toHaveLength(1);
    const term = doc[0]!;
    expect(Object.keys(term)[0]).toBe('@context'); // streaming order
    // Inline (issue 34): SciGraph's published context, the URL of spec §4.3, lacks the owl: prefix the term uses.
    expect(term['@context']).toEqual((JSON.parse(vocab('sgcontext.jsonld')) as { '@context': unknown })['@context']);
    expect(term).toMatchObject({
      id: 'schema:pagination',
      type: 'rdf:Property',
      'rdfs:label': 'pagination',
      'owl:equivalentProperty': { id: expect.any(String) },
      'schema:rangeIncludes': { id: 'schema:Text' },
      'dcterms:source': { id: expect.any(String) },
      sdDataset: expect.any(String),
    });
    expect(term['schema:domainIncludes']).toHaveLength(3);
  });

  it('ships a context with exactly the terms the term file uses', () => {
    const context = (JSON.parse(vocab('sgcontext.jsonld')) as { '@context': Record<string, unknown> })['@context'];
    const doc = vocab('pagination.jsonld');
    for (const key of Object.keys(context)) {
      if (key.startsWith('@') || key === 'sgo') continue; // sgo: used by the sdDataset definition
      expect(doc.includes(`"${key}`) || doc.includes(`${key}:`), `context term ${key} is used`).toBe(true);
    }
  });
});
