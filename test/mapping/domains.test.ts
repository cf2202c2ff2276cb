/**
 * Domains, read from vocab/ (issue 17, points 4 and 6): the mapper writes a property only on a node
 * whose type its definition allows, and every sr: term it writes is declared in vocab/sr.ttl.
 *
 * Input: every record of the real responses in test/fixtures/service/ and the first records of the
 * bundled sample catalogue, read, normalised and mapped as `convert` does; and, apart, a few records
 * made here with the quirks those lack (the book key set on a journal page, a book with a volume,
 * number and pages, a work with no container, invalid identifiers, ...). For each record's quads:
 * - a predicate with an rdfs:domain in vocab/bibo-terms.ttl or vocab/sr.ttl (also through
 *   rdfs:subPropertyOf; an owl:unionOf domain is met by one member): its subject is typed, in the same
 *   record, with that class or a subclass of it;
 * - a predicate with schema:domainIncludes in vocab/schema-terms.ttl: its subject is typed with one of
 *   those classes or a subclass of one;
 * - every sr: predicate and class is declared in vocab/sr.ttl with a label, a comment and
 *   rdfs:isDefinedBy the ontology, and is not deprecated;
 * - every bibo: and schema: predicate and class is declared in vocab/ (else the domain check would
 *   pass it silently).
 * Each failure lists the offending predicate once, with its count and an example record.
 */
import type * as RDF from '@rdfjs/types';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { DataFactory, Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { readRecords } from '../../src/record/readRecords.js';
import { NS } from '../../src/rdf/namespaces.js';

const { rdf: RDF_NS, rdfs: RDFS, owl: OWL, schemaHttp: SCHEMA, bibo: BIBO, sr: SR } = NS;
const SR_ONTOLOGY = 'https://w3id.org/scholarly-rdf/vocab';
const TYPE = `${RDF_NS}type`;

const FIXTURES = new URL('../fixtures/service/', import.meta.url);
const SAMPLE = new URL('../../data/sample-catalogue.jsonl', import.meta.url);
const SAMPLE_LIMIT = 2000;

const PREFIXES: [string, string][] = [
  ['schema:', SCHEMA],
  ['bibo:', BIBO],
  ['sr:', SR],
  ['rdf:', RDF_NS],
  ['rdfs:', RDFS],
  ['owl:', OWL],
  ['skos:', 'http://www.w3.org/2004/02/skos/core#'],
  ['dcterms:', 'http://purl.org/dc/terms/'],
  ['event:', 'http://purl.org/NET/c4dm/event.owl#'],
];
const short = (iri: string) => {
  for (const [p, ns] of PREFIXES) if (iri.startsWith(ns)) return p + iri.slice(ns.length);
  return `<${iri}>`;
};

function readVocab(file: string): RDF.Quad[] {
  const text = readFileSync(new URL(`../../vocab/${file}`, import.meta.url), 'utf8');
  return new Parser({ format: 'text/turtle', factory: DataFactory }).parse(text) as RDF.Quad[];
}

/** The definitions the check needs, read from vocabulary quads. */
class DomainRules {
  private readonly superClasses = new Map<string, Set<string>>();
  private readonly superProperties = new Map<string, Set<string>>();
  /** Property -> its rdfs:domain values, each a set of alternatives (a class, or the members of an owl:unionOf). */
  private readonly domains = new Map<string, string[][]>();
  /** Property -> the classes of its schema:domainIncludes (one must hold). */
  private readonly domainIncludes = new Map<string, string[]>();
  /** Every IRI that is the subject of an rdf:type triple. */
  readonly declared = new Set<string>();
  private readonly ancestorCache = new Map<string, Set<string>>();

  constructor(quads: readonly RDF.Quad[]) {
    const bySubject = new Map<string, RDF.Quad[]>();
    for (const q of quads) {
      const key = q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value;
      let list = bySubject.get(key);
      if (!list) bySubject.set(key, (list = []));
      list.push(q);
    }
    const objects = (subject: RDF.Term, predicate: string) =>
      (bySubject.get(subject.termType === 'BlankNode' ? `_:${subject.value}` : subject.value) ?? [])
        .filter((q) => q.predicate.value === predicate)
        .map((q) => q.object);
    const list = (head: RDF.Term): RDF.Term[] => {
      const items: RDF.Term[] = [];
      for (let cell = head; cell.value !== `${RDF_NS}nil`;) {
        const [first] = objects(cell, `${RDF_NS}first`);
        const [rest] = objects(cell, `${RDF_NS}rest`);
        if (!first || !rest) throw new Error(`malformed RDF list in the vocabulary at ${cell.value}`);
        items.push(first);
        cell = rest;
      }
      return items;
    };
    const alternatives = (term: RDF.Term): string[] => {
      if (term.termType === 'NamedNode') return [term.value];
      const [union] = objects(term, `${OWL}unionOf`);
      if (!union) throw new Error('a blank-node domain that is not an owl:unionOf');
      return list(union).map((t) => t.value);
    };
    const add = (map: Map<string, Set<string>>, key: string, value: string) => {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(value);
    };
    for (const q of quads) {
      if (q.subject.termType !== 'NamedNode') continue;
      const s = q.subject.value;
      switch (q.predicate.value) {
        case TYPE:
          this.declared.add(s);
          break;
        case `${RDFS}subClassOf`:
          if (q.object.termType === 'NamedNode') add(this.superClasses, s, q.object.value);
          break;
        case `${RDFS}subPropertyOf`:
          add(this.superProperties, s, q.object.value);
          break;
        case `${RDFS}domain`:
          this.domains.set(s, [...(this.domains.get(s) ?? []), alternatives(q.object)]);
          break;
        case `${SCHEMA}domainIncludes`:
          this.domainIncludes.set(s, [...(this.domainIncludes.get(s) ?? []), q.object.value]);
          break;
      }
    }
  }

  /** A class and every class above it (rdfs:subClassOf, transitively). */
  ancestors(cls: string): Set<string> {
    let set = this.ancestorCache.get(cls);
    if (!set) {
      set = new Set([cls]);
      const todo = [cls];
      while (todo.length)
        for (const up of this.superClasses.get(todo.pop()!) ?? [])
          if (!set.has(up)) {
            set.add(up);
            todo.push(up);
          }
      this.ancestorCache.set(cls, set);
    }
    return set;
  }

  /** The rdfs:domain constraints of a property, its own and those of the properties above it. */
  rdfsDomains(property: string): { via: string; alternatives: string[] }[] {
    const out: { via: string; alternatives: string[] }[] = [];
    const seen = new Set<string>();
    const todo = [property];
    while (todo.length) {
      const p = todo.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      for (const alternatives of this.domains.get(p) ?? []) out.push({ via: p, alternatives });
      todo.push(...(this.superProperties.get(p) ?? []));
    }
    return out;
  }

  includes(property: string): string[] | undefined {
    return this.domainIncludes.get(property);
  }

  /** Whether a node of these types is in one of the classes. */
  satisfies(types: Iterable<string>, classes: readonly string[]): boolean {
    if (classes.includes(`${RDFS}Resource`) || classes.includes(`${OWL}Thing`)) return true; // holds of every node
    for (const t of types) for (const up of this.ancestors(t)) if (classes.includes(up)) return true;
    return false;
  }

  /** The domain violations of one record's quads: one line per triple that breaks a rule. */
  check(quads: readonly RDF.Quad[]): { predicate: string; rule: string; types: string[]; subject: string }[] {
    const types = new Map<string, Set<string>>();
    for (const q of quads) {
      if (q.predicate.value !== TYPE || q.object.termType !== 'NamedNode') continue;
      let set = types.get(q.subject.value);
      if (!set) types.set(q.subject.value, (set = new Set()));
      set.add(q.object.value);
    }
    const out: { predicate: string; rule: string; types: string[]; subject: string }[] = [];
    for (const q of quads) {
      const p = q.predicate.value;
      const have = types.get(q.subject.value) ?? new Set<string>();
      for (const { via, alternatives } of this.rdfsDomains(p)) {
        if (!this.satisfies(have, alternatives)) {
          const what = alternatives.map(short).join(' or ');
          out.push({
            predicate: p,
            rule: `rdfs:domain ${what}${via === p ? '' : ` (of ${short(via)})`}`,
            types: [...have].sort(),
            subject: q.subject.value,
          });
        }
      }
      const includes = this.includes(p);
      if (includes && !this.satisfies(have, includes)) {
        out.push({
          predicate: p,
          rule: `schema:domainIncludes ${includes.map(short).join(', ')}`,
          types: [...have].sort(),
          subject: q.subject.value,
        });
      }
    }
    return out;
  }
}

interface Mapped {
  /** Where the record comes from: file and position. */
  source: string;
  doi: string;
  quads: RDF.Quad[];
}

/** Maps one read record; a record the mapper rejects (MappingError) is listed, not mapped. */
function mapOne(raw: unknown, source: string, mapped: Mapped[], rejected: string[]): void {
  try {
    const m = mapRecord(normalizeRecord(raw, { recordLabel: source }), { recordLabel: source });
    mapped.push({ source, doi: m.doi, quads: m.quads });
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    rejected.push(`${source}: ${error.message}`);
  }
}

async function mapFiles(): Promise<{ mapped: Mapped[]; rejected: string[] }> {
  const mapped: Mapped[] = [];
  const rejected: string[] = [];
  const take = async (input: Readable, name: string, limit = Infinity) => {
    let n = 0;
    for await (const item of readRecords(input, { source: name })) {
      if (item.kind !== 'record') continue;
      if (++n > limit) break;
      mapOne(item.raw, `${name}#${item.index}`, mapped, rejected);
    }
  };
  for (const file of readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    await take(createReadStream(new URL(file, FIXTURES)), `test/fixtures/service/${file}`);
  }
  const stream = createReadStream(SAMPLE);
  try {
    await take(stream, 'data/sample-catalogue.jsonl', SAMPLE_LIMIT);
  } finally {
    stream.destroy();
  }
  return { mapped, rejected };
}

const url = (value: string, format = '', platform = '') => ({ format, platform, value });
/**
 * Records in the service's shape with what the fixtures and the sample catalogue lack, so that every
 * container branch of the mapper and every sr: term is written at least once.
 */
const EDGE_RECORDS: Record<string, unknown>[] = [
  // A journal article from a page that sends the book key set (printIsbn/electronicIsbn) instead of issn/journalId.
  {
    doi: '10.1186/s12889-015-0001-1',
    contentType: 'Article',
    title: 'Screening uptake among elderlies',
    publicationName: 'BMC Public Health',
    publisher: 'Springer',
    publisherName: 'BioMed Central',
    printIsbn: '978-0-306-40615-7',
    electronicIsbn: '',
    isbn: '',
    volume: '15',
    number: '1',
    issueType: 'Regular',
    startingPage: '101',
    endingPage: '109',
    creators: [{ creator: 'Alpha, Ann', ORCID: '0000-0002-1825-0097' }, { creator: 'Gamma, Gil' }],
    disciplines: [{ id: '3054', term: 'Medicine & Public Health' }],
    url: [url('http://link.springer.com/10.1186/s12889-015-0001-1', 'pdf', 'web')],
  },
  // The same journal with journal keys, an invalid print ISSN (check digit), a valid electronic one, an ISBN, free-text pages.
  {
    doi: '10.1186/s12889-015-0002-2',
    contentType: 'Article',
    publicationName: 'BMC Public Health',
    journalId: '12889',
    issn: '1471-2459',
    eIssn: '1471-2458',
    electronicIsbn: '978-0-306-40615-7',
    volume: '15',
    number: 'S2',
    issueType: 'Supplement',
    startingPage: '1-3, 7',
    endingPage: '',
    publisher: 'Springer',
    publisherName: 'Springer',
    topicalCollection: 'Ageing',
    identifier: 'doi:10.1186/other',
  },
  // A work with no container at all (the CreativeWork fallback), with pages and a conference.
  {
    doi: '10.1007/0-000-00000-0_1',
    contentType: 'ReferenceWorkEntry',
    title: 'Entry',
    startingPage: '3',
    endingPage: '9',
    conferenceInfo: [{ confName: 'Conf 2015', confSeriesName: 'Conf' }],
    openaccess: 'true',
  },
  // A book with its number in a series (volume), an issue number, pages and the series' ISSN.
  {
    doi: '10.1007/978-1-4939-2550-6',
    contentType: 'Book',
    title: 'Methods and Protocols',
    publicationName: 'Methods in Molecular Biology',
    publicationType: 'BookSeries',
    printIsbn: '978-1-4939-2549-0',
    electronicIsbn: '978-1-4939-2550-6',
    issn: '1064-3745',
    eIssn: '1940-6029',
    journalId: '7651',
    volume: '1278',
    number: '2',
    startingPage: '1',
    endingPage: '380',
    publisher: 'Springer',
    publisherName: 'Humana Press',
  },
  // A chapter of a book in a series, with a bad ISBN, an issue number (the chapter's own number), an ORCID with a wrong check character.
  {
    doi: '10.1007/978-1-4939-2550-6_3',
    contentType: 'Chapter',
    publicationName: 'Methods and Protocols',
    publicationType: 'Book',
    printIsbn: '978-1-4939-2549-1',
    electronicIsbn: '978-1-4939-2550-6',
    issn: '1064-3745',
    volume: '1278',
    number: '3',
    issueType: 'Regular',
    startingPage: '25',
    endingPage: '40',
    creators: [{ creator: 'Beta, Bo', ORCID: '0000-0002-1825-0098' }],
  },
  // A protocol in a book, typed from its container, with an ISBN-10.
  {
    doi: '10.1007/978-1-0716-0000-0_4',
    contentType: 'Protocol',
    publicationName: 'Lab Protocols',
    publicationType: 'Book',
    isbn: '0-306-40615-2',
    startingPage: 'e15',
    url: [url('http://link.springer.com/protocol/10.1007/978-1-0716-0000-0_4', 'html', 'web')],
  },
];

/** Failures grouped by a key: the first example kept, the rest counted. */
/** Every predicate and class the mapped records write, with the record that wrote it. */
function* writtenTerms(mapped: readonly Mapped[]): Generator<[string, Mapped]> {
  for (const m of mapped) {
    for (const q of m.quads) {
      yield [q.predicate.value, m];
      if (q.predicate.value === TYPE && q.object.termType === 'NamedNode') yield [q.object.value, m];
    }
  }
}

class Report {
  private readonly groups = new Map<string, { count: number; example: string }>();
  add(key: string, example: string): void {
    const g = this.groups.get(key);
    if (g) g.count++;
    else this.groups.set(key, { count: 1, example });
  }
  lines(): string[] {
    return [...this.groups].map(([key, { count, example }]) => `${key} -- ${count} triple(s), e.g. ${example}`).sort();
  }
}

const rules = new DomainRules([
  ...readVocab('bibo-terms.ttl'),
  ...readVocab('schema-terms.ttl'),
  ...readVocab('sr.ttl'),
]);
const srVocab = readVocab('sr.ttl');

describe('the domain checker (on hand-made triples)', () => {
  const { namedNode: n, literal: l, quad: q } = DataFactory;
  const s = n('https://doi.org/10.1/x');
  const issue = n('https://w3id.org/scholarly-rdf/doi/10.1/x#issue');
  const a = (subject: RDF.Quad_Subject, cls: string) => q(subject, n(TYPE), n(cls));

  it('flags bibo:issue on an article and accepts it on an issue', () => {
    const found = rules.check([
      a(s, `${SCHEMA}ScholarlyArticle`),
      a(s, `${BIBO}AcademicArticle`),
      q(s, n(`${BIBO}issue`), l('4')),
      a(issue, `${SCHEMA}PublicationIssue`),
      a(issue, `${BIBO}Issue`),
      q(issue, n(`${BIBO}issue`), l('4')),
    ]);
    expect(found.map((f) => [short(f.predicate), f.subject, f.rule])).toEqual([
      [`bibo:issue`, s.value, 'rdfs:domain bibo:Issue'],
    ]);
  });

  it('flags schema:volumeNumber and schema:pageStart on a book, accepts bibo:volume there', () => {
    const found = rules.check([
      a(s, `${SCHEMA}Book`),
      a(s, `${BIBO}Book`),
      q(s, n(`${SCHEMA}volumeNumber`), l('3')),
      q(s, n(`${BIBO}volume`), l('3')),
      q(s, n(`${SCHEMA}pageStart`), l('1')),
    ]);
    expect(found.map((f) => short(f.predicate)).sort()).toEqual(['schema:pageStart', 'schema:volumeNumber']);
  });

  it('reads owl:unionOf domains and inherits them through rdfs:subPropertyOf', () => {
    const series = n('https://w3id.org/scholarly-rdf/series/x');
    const found = rules.check([
      a(series, `${SCHEMA}BookSeries`),
      a(series, `${BIBO}Series`),
      q(series, n(`${BIBO}issn`), l('1234-5679')),
      q(series, n(`${SCHEMA}issn`), l('1234-5679')),
      q(n('http://x.org/untyped'), n(`${BIBO}isbn`), l('9780306406157')),
    ]);
    expect(found.map((f) => f.rule)).toEqual(['rdfs:domain bibo:Collection or bibo:Document (of bibo:identifier)']);
  });

  it('accepts a subclass of a domainIncludes class (Periodical is a CreativeWorkSeries)', () => {
    const journal = n('https://w3id.org/scholarly-rdf/journal/1');
    expect(
      rules.check([
        a(journal, `${SCHEMA}Periodical`),
        a(journal, `${BIBO}Journal`),
        q(journal, n(`${SCHEMA}issn`), l('1234-5679')),
      ]),
    ).toEqual([]);
  });
});

/** The checks of one set of mapped records. */
function checks(
  load: () => Promise<{ mapped: Mapped[]; rejected: string[] }>,
  minimum: { fixtures?: number; total: number; checked: number },
): void {
  let mapped: Mapped[] = [];
  let rejected: string[] = [];
  beforeAll(async () => {
    ({ mapped, rejected } = await load());
  });

  it('maps the records (the check is not vacuous)', () => {
    const fromFixtures = mapped.filter((m) => m.source.startsWith('test/fixtures/')).length;
    if (minimum.fixtures)
      expect(fromFixtures, `rejected: ${rejected.join('; ')}`).toBeGreaterThanOrEqual(minimum.fixtures);
    expect(mapped.length, `rejected: ${rejected.join('; ')}`).toBeGreaterThanOrEqual(minimum.total);
  });

  it('every subject of a property with a domain carries a type that the domain allows', () => {
    const report = new Report();
    let checked = 0;
    for (const m of mapped) {
      checked += m.quads.filter(
        (q) => rules.rdfsDomains(q.predicate.value).length || rules.includes(q.predicate.value),
      ).length;
      for (const v of rules.check(m.quads)) {
        const types = v.types.length ? v.types.map(short).join(', ') : 'no type';
        report.add(
          `${short(v.predicate)}: ${v.rule}, but the subject is typed ${types}`,
          `${m.doi} (${m.source}) <${v.subject}>`,
        );
      }
    }
    expect(checked).toBeGreaterThanOrEqual(minimum.checked);
    expect(report.lines()).toEqual([]);
  });

  it('every sr: predicate and class it writes is declared in vocab/sr.ttl (label, comment, isDefinedBy) and not deprecated', () => {
    const about = (iri: string, p: string) =>
      srVocab.filter((q) => q.subject.value === iri && q.predicate.value === p).map((q) => q.object.value);
    const problems = (iri: string): string[] => {
      if (!about(iri, TYPE).length) return ['not declared in vocab/sr.ttl'];
      const out: string[] = [];
      if (!about(iri, `${RDFS}label`).length) out.push('no rdfs:label');
      if (!about(iri, `${RDFS}comment`).length) out.push('no rdfs:comment');
      if (!about(iri, `${RDFS}isDefinedBy`).includes(SR_ONTOLOGY)) out.push(`not rdfs:isDefinedBy <${SR_ONTOLOGY}>`);
      if (about(iri, `${OWL}deprecated`).includes('true')) {
        const by = about(iri, 'http://purl.org/dc/terms/isReplacedBy').map(short).join(', ');
        out.push(`deprecated${by ? `: write ${by} instead` : ''}`);
      }
      return out;
    };
    const report = new Report();
    for (const [t, m] of writtenTerms(mapped)) {
      if (!t.startsWith(SR)) continue;
      for (const p of problems(t)) report.add(`${short(t)}: ${p}`, `${m.doi} (${m.source})`);
    }
    expect(report.lines()).toEqual([]);
  });

  it('every bibo: and schema: predicate and class it writes is declared in vocab/bibo-terms.ttl or vocab/schema-terms.ttl', () => {
    const report = new Report();
    for (const [t, m] of writtenTerms(mapped)) {
      if ((t.startsWith(SCHEMA) || t.startsWith(BIBO)) && !rules.declared.has(t))
        report.add(`${short(t)}: not declared in vocab/`, `${m.doi} (${m.source})`);
    }
    expect(report.lines()).toEqual([]);
  });
}

describe('the mapper writes properties only where their domains allow: fixtures and sample catalogue', () => {
  checks(mapFiles, { fixtures: 4, total: 4 + Math.min(SAMPLE_LIMIT, 250), checked: 1000 });
});

describe('the mapper writes properties only where their domains allow: records with the quirks the files lack', () => {
  checks(
    async () => {
      const mapped: Mapped[] = [];
      const rejected: string[] = [];
      EDGE_RECORDS.forEach((raw, i) => mapOne(raw, `EDGE_RECORDS[${i}]`, mapped, rejected));
      return { mapped, rejected };
    },
    { total: EDGE_RECORDS.length, checked: 50 },
  );
});
