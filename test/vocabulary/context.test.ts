/**
 * The shipped JSON-LD context (vocab/context.jsonld) covers the terms of the graph model of issue 17:
 * schema:additionalType, schema:publisherImprint, schema:inDefinedTermSet, skos:inScheme, bibo:number,
 * the skos: prefix for skos:Concept / skos:ConceptScheme, and the ISSN portal links of schema:sameAs as
 * plain IRIs. Classes are not terms of the context (as before): they are written as compact IRIs
 * (`schema:DefinedTermSet`, `skos:Concept`) through their prefix.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { NS } from '../../src/rdf/namespaces.js';
import { CONTEXT_URL, shippedContext } from '../../src/serialize/jsonldContext.js';
import { expectIsomorphic, parseJsonLd } from '../helpers/rdf.js';
import { writeAll } from '../serialize/quads.js';

const { namedNode: n, literal: l, quad: q } = DataFactory;
const { schemaHttp: SCHEMA, bibo: BIBO, skos: SKOS, sr: SR } = NS;
const TYPE = `${NS.rdf}type`;
const B = 'https://w3id.org/scholarly-rdf/';

/** One record of the new model: a chapter with its number, a journal-like series with an ISSN portal link, a publisher and its imprint, a discipline concept. */
function modelQuads(schema = SCHEMA): RDF.Quad[] {
  const s = (local: string) => n(schema + local);
  const work = n('https://doi.org/10.1007/978-1-0716-3973-3_2');
  const series = n(`${B}issn/1064-3745`);
  const springer = n(`${B}publisher/springer`);
  const imprint = n(`${B}publisher/humana-new-york`);
  const discipline = n(`${B}discipline/3054`);
  const scheme = n(`${B}discipline/`);
  return [
    q(work, n(TYPE), s('Chapter')),
    q(work, n(TYPE), n(`${BIBO}Chapter`)),
    q(work, s('additionalType'), l('Protocol')),
    q(work, n(`${BIBO}number`), l('2')),
    q(work, s('publisher'), springer),
    q(work, s('publisherImprint'), imprint),
    q(work, s('about'), discipline),
    q(work, s('isPartOf'), series),
    q(series, n(TYPE), s('BookSeries')),
    q(series, n(TYPE), n(`${BIBO}Series`)),
    q(series, s('issn'), l('1064-3745')),
    q(series, n(`${BIBO}issn`), l('1064-3745')),
    q(series, s('sameAs'), n('https://portal.issn.org/resource/ISSN/1064-3745')),
    q(springer, n(TYPE), s('Organization')),
    q(springer, s('name'), l('Springer')),
    q(imprint, n(TYPE), s('Organization')),
    q(imprint, s('name'), l('Humana, New York, NY')),
    q(discipline, n(TYPE), s('DefinedTerm')),
    q(discipline, n(TYPE), n(`${SKOS}Concept`)),
    q(discipline, s('inDefinedTermSet'), scheme),
    q(discipline, n(`${SKOS}inScheme`), scheme),
    q(discipline, s('identifier'), l('3054')),
    q(discipline, s('name'), l('Medicine & Public Health')),
    q(scheme, n(TYPE), s('DefinedTermSet')),
    q(scheme, n(TYPE), n(`${SKOS}ConceptScheme`)),
    q(work, n(`${SR}issueType`), l('Regular')),
  ];
}

describe('vocab/context.jsonld and the graph model of issue 17', () => {
  it('declares the new terms as it declares the others: node references coerced to @id, text plain', () => {
    const context = shippedContext();
    expect(context).toMatchObject({
      skos: SKOS,
      additionalType: 'schema:additionalType',
      publisherImprint: { '@id': 'schema:publisherImprint', '@type': '@id' },
      inDefinedTermSet: { '@id': 'schema:inDefinedTermSet', '@type': '@id' },
      inScheme: { '@id': 'skos:inScheme', '@type': '@id' },
      number: 'bibo:number',
      sameAs: { '@id': 'schema:sameAs', '@type': '@id' },
    });
  });

  it('compacts the new terms to short keys, classes to compact IRIs, and reads back as the same graph', async () => {
    const input = modelQuads();
    const text = writeAll('jsonld', [input]);
    const graph = JSON.parse(text)['@graph'] as Record<string, unknown>[];
    const byId = new Map(graph.map((node) => [node['@id'] as string, node]));
    const work = byId.get('https://doi.org/10.1007/978-1-0716-3973-3_2')!;
    expect(work).toMatchObject({ additionalType: 'Protocol', number: '2', 'sr:issueType': 'Regular' });
    expect(work.publisherImprint).toMatchObject({
      '@id': `${B}publisher/humana-new-york`,
      name: 'Humana, New York, NY',
    });
    expect(work.isPartOf).toMatchObject({
      '@type': ['schema:BookSeries', 'bibo:Series'],
      sameAs: 'https://portal.issn.org/resource/ISSN/1064-3745',
    });
    const discipline = work.about as Record<string, unknown>;
    expect(discipline).toMatchObject({
      '@type': ['schema:DefinedTerm', 'skos:Concept'],
      inScheme: `${B}discipline/`,
      inDefinedTermSet: `${B}discipline/`,
    });
    const scheme = byId.get(`${B}discipline/`)!;
    expect(scheme['@type']).toEqual(['schema:DefinedTermSet', 'skos:ConceptScheme']);
    // No predicate is written as a full IRI: each has a term or a prefix.
    for (const node of graph) for (const key of Object.keys(node)) expect(key, `key ${key}`).not.toMatch(/^https?:/);
    expectIsomorphic(await parseJsonLd(text), input);
  });

  it('reads back the same with the context by URL and with schema.org over https', async () => {
    const input = modelQuads();
    expectIsomorphic(await parseJsonLd(writeAll('jsonld', [input], { jsonldContext: CONTEXT_URL })), input);
    const https = modelQuads('https://schema.org/');
    for (const jsonldContext of ['inline', CONTEXT_URL]) {
      const text = writeAll('jsonld', [https], { prefixes: { schema: 'https://schema.org/' }, jsonldContext });
      expectIsomorphic(await parseJsonLd(text), https);
    }
  });
});
