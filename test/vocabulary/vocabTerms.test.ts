/**
 * The vocabulary files of vocab/ (issue 17, point 6): vocab/sr.ttl declares every sr: term the toolkit
 * writes, with its ontology header; vocab/bibo-terms.ttl and vocab/schema-terms.ttl restate BIBO's and
 * schema.org's definitions with their attribution and licence. (That the mapper's output keeps to the
 * domains stated there is test/mapping/domains.test.ts.)
 */
import type * as RDF from '@rdfjs/types';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataFactory, Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { NS } from '../../src/rdf/namespaces.js';

const { rdf: RDF_NS, rdfs: RDFS, owl: OWL, dcterms: DCTERMS, schemaHttp: SCHEMA, bibo: BIBO } = NS;
const VANN = 'http://purl.org/vocab/vann/';
const ONTOLOGY = 'https://w3id.org/scholarly-rdf/vocab';
const TYPE = `${RDF_NS}type`;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const text = (file: string) => readFileSync(join(ROOT, 'vocab', file), 'utf8');
const parse = (file: string) =>
  new Parser({ format: 'text/turtle', factory: DataFactory }).parse(text(file)) as RDF.Quad[];
const values = (quads: RDF.Quad[], s: string, p: string) =>
  quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);

/** Every .ts file under a folder of the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The sr: terms named in the code (`sr('issueType')`, `t.sr('platform')`, `${NS.sr}query`) and in the shapes (`sr:issueType`). */
function termsInUse(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources('src')) {
    const code = readFileSync(join(ROOT, file), 'utf8');
    for (const m of code.matchAll(
      /\bsr\(\s*'([A-Za-z][A-Za-z0-9]*)'\s*\)|\$\{NS\.sr\}([A-Za-z][A-Za-z0-9]*)|NS\.sr \+ '([A-Za-z][A-Za-z0-9]*)'/g,
    )) {
      found.set(m[1] ?? m[2] ?? m[3]!, file);
    }
  }
  for (const name of readdirSync(join(ROOT, 'shapes')).filter((f) => f.endsWith('.ttl'))) {
    const shapes = readFileSync(join(ROOT, 'shapes', name), 'utf8').replace(/^@prefix.*$/gm, '');
    for (const m of shapes.matchAll(/\bsr:([A-Za-z][A-Za-z0-9]*)/g)) found.set(m[1]!, `shapes/${name}`);
  }
  // Written through a variable (`sr(field)`): a record's ISSN or ISBN kept as sent.
  for (const field of ['issn', 'eIssn', 'printIsbn', 'electronicIsbn', 'isbn'])
    found.set(field, 'the raw ISSN/ISBN fields');
  return found;
}

describe('vocab/sr.ttl', () => {
  const quads = parse('sr.ttl');

  it('is the ontology of the namespace the mapper writes, with title, description, licence and preferred prefix', () => {
    expect(NS.sr).toBe(`${ONTOLOGY}#`);
    expect(values(quads, ONTOLOGY, TYPE)).toEqual([`${OWL}Ontology`]);
    expect(values(quads, ONTOLOGY, `${DCTERMS}title`)).toHaveLength(1);
    expect(values(quads, ONTOLOGY, `${DCTERMS}description`)).toHaveLength(1);
    expect(values(quads, ONTOLOGY, `${DCTERMS}license`)).toEqual(['http://spdx.org/licenses/MIT']);
    expect(values(quads, ONTOLOGY, `${VANN}preferredNamespacePrefix`)).toEqual(['sr']);
    expect(values(quads, ONTOLOGY, `${VANN}preferredNamespaceUri`)).toEqual([NS.sr]);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license).toBe('MIT');
  });

  it('gives every term a type, label, comment, domain, range and rdfs:isDefinedBy the ontology', () => {
    const terms = [...new Set(quads.map((q) => q.subject.value).filter((s) => s.startsWith(NS.sr)))];
    expect(terms.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const term of terms) {
      const missing = [
        [TYPE, 'rdf:type'],
        [`${RDFS}label`, 'rdfs:label'],
        [`${RDFS}comment`, 'rdfs:comment'],
      ]
        .filter(([p]) => values(quads, term, p!).length === 0)
        .map(([, name]) => name!);
      if (!values(quads, term, `${RDFS}domain`).length && !values(quads, term, `${SCHEMA}domainIncludes`).length)
        missing.push('domain');
      if (!values(quads, term, `${RDFS}range`).length && !values(quads, term, `${SCHEMA}rangeIncludes`).length)
        missing.push('range');
      if (!values(quads, term, `${RDFS}isDefinedBy`).includes(ONTOLOGY)) missing.push(`rdfs:isDefinedBy <${ONTOLOGY}>`);
      if (missing.length) problems.push(`${term}: ${missing.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('declares every sr: term that the code or the shapes name', () => {
    const declared = new Set(quads.filter((q) => q.predicate.value === TYPE).map((q) => q.subject.value));
    const inUse = termsInUse();
    expect(inUse.size).toBeGreaterThan(5);
    const undeclared = [...inUse]
      .filter(([local]) => !declared.has(NS.sr + local))
      .map(([local, where]) => `sr:${local} (${where})`);
    expect(undeclared).toEqual([]);
  });

  it('marks a replaced term deprecated and names its replacement', () => {
    const deprecated = quads
      .filter((q) => q.predicate.value === `${OWL}deprecated` && q.object.value === 'true')
      .map((q) => q.subject.value);
    expect(deprecated).toEqual([`${NS.sr}contentType`]);
    expect(values(quads, `${NS.sr}contentType`, `${DCTERMS}isReplacedBy`)).toEqual([`${SCHEMA}additionalType`]);
  });
});

describe('vocab/bibo-terms.ttl and vocab/schema-terms.ttl', () => {
  it('restate BIBO 1.3 with its authors and its licence (CC BY 1.0)', () => {
    const quads = parse('bibo-terms.ttl');
    expect(text('bibo-terms.ttl')).toMatch(/Creative Commons Attribution 1\.0 Generic/);
    expect(values(quads, BIBO, `${DCTERMS}license`)).toEqual(['https://creativecommons.org/licenses/by/1.0/']);
    expect(values(quads, BIBO, `${OWL}versionInfo`)).toEqual(['http://purl.org/ontology/bibo/1.3/']);
    expect(values(quads, BIBO, `${DCTERMS}creator`).sort()).toEqual(["Bruce D'Arcus", 'Frederick Giasson']);
    // The domains that issue 17 turns on.
    expect(values(quads, `${BIBO}issue`, `${RDFS}domain`)).toEqual([`${BIBO}Issue`]);
    expect(values(quads, `${BIBO}volume`, `${RDFS}domain`)).toEqual([`${BIBO}Document`]);
    expect(values(quads, `${BIBO}number`, `${RDFS}domain`)).toEqual([`${BIBO}Document`]);
    expect(values(quads, `${BIBO}Issue`, `${RDFS}subClassOf`)).toEqual([`${BIBO}CollectedDocument`]);
    expect(values(quads, `${BIBO}Journal`, `${RDFS}subClassOf`)).toEqual([`${BIBO}Periodical`]);
  });

  it('restate schema.org with its licence (CC BY-SA 3.0) and the domains of the narrow properties', () => {
    const quads = parse('schema-terms.ttl');
    expect(text('schema-terms.ttl')).toMatch(/Creative Commons Attribution-ShareAlike 3\.0/);
    expect(values(quads, SCHEMA, `${DCTERMS}license`)).toEqual(['https://creativecommons.org/licenses/by-sa/3.0/']);
    const includes = (p: string) =>
      values(quads, SCHEMA + p, `${SCHEMA}domainIncludes`)
        .map((c) => c.slice(SCHEMA.length))
        .sort();
    expect(includes('volumeNumber')).toEqual(['PublicationVolume']);
    expect(includes('issueNumber')).toEqual(['PublicationIssue']);
    expect(includes('isbn')).toEqual(['Book']);
    expect(includes('issn')).toEqual(['Blog', 'CreativeWorkSeries', 'Dataset', 'WebSite']);
    expect(includes('publisherImprint')).toEqual(['CreativeWork']);
    expect(includes('inDefinedTermSet')).toEqual(['DefinedTerm']);
    for (const p of ['pageStart', 'pageEnd', 'pagination'])
      expect(includes(p)).toEqual(['Article', 'Chapter', 'PublicationIssue', 'PublicationVolume']);
    const up = (c: string) =>
      values(quads, SCHEMA + c, `${RDFS}subClassOf`)
        .map((x) => x.slice(SCHEMA.length))
        .sort();
    expect(up('ScholarlyArticle')).toEqual(['Article']);
    expect(up('Periodical')).toEqual(['CreativeWorkSeries']);
    expect(up('BookSeries')).toEqual(['CreativeWorkSeries']);
    expect(up('CreativeWorkSeries')).toEqual(['CreativeWork', 'Series']);
  });

  it('agree with the shipped term schema:pagination where they overlap (it lacks the later Chapter)', () => {
    const shipped = new Parser({ format: 'application/n-triples', factory: DataFactory }).parse(
      text('pagination.nt'),
    ) as RDF.Quad[];
    const restated = parse('schema-terms.ttl');
    const includes = (qs: RDF.Quad[]) => values(qs, `${SCHEMA}pagination`, `${SCHEMA}domainIncludes`).sort();
    expect(includes(restated).filter((c) => c !== `${SCHEMA}Chapter`)).toEqual(includes(shipped));
  });
});
