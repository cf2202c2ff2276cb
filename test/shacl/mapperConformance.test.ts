import type * as RDF from '@rdfjs/types';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { describeViolations } from '../../src/shacl/createRecordValidator.js';
import { fixtureQuads } from './shapeCases.js';

/** A term as N-Triples would write it (enough to compare quads as text). */
function termText(t: RDF.Term): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'Literal')
    return `${JSON.stringify(t.value)}${t.language ? `@${t.language}` : `^^<${t.datatype.value}>`}`;
  return `_:${t.value}`;
}

const SERVICE = fileURLToPath(new URL('../fixtures/service/', import.meta.url));
let validator: RecordValidator;

beforeAll(async () => {
  validator = await RecordValidator.create();
});

function recordsOf(json: unknown): unknown[] {
  const j = json as { records?: unknown[]; doi?: unknown; identifier?: unknown };
  if (Array.isArray(j.records)) return j.records;
  return j.doi || j.identifier ? [j] : [];
}

async function violationsOf(raw: unknown): Promise<string[]> {
  const mapped = mapRecord(normalizeRecord(raw));
  const outcome = await validator.validateRecord(mapped.quads);
  return describeViolations(outcome).map((line) => `${mapped.doi}: ${line}`);
}

describe('the mapping conforms to shapes/', () => {
  it('for every record of the service fixtures (test/fixtures/service)', async () => {
    let records = 0;
    const violations: string[] = [];
    for (const file of readdirSync(SERVICE).filter((f) => f.endsWith('.json'))) {
      for (const raw of recordsOf(JSON.parse(readFileSync(`${SERVICE}${file}`, 'utf8')))) {
        records++;
        violations.push(...(await violationsOf(raw)));
      }
    }
    expect(records).toBeGreaterThanOrEqual(4);
    expect(violations).toEqual([]);
  });

  it('for every record of the bundled sample catalogue (data/sample-catalogue.jsonl)', async () => {
    const lines = readFileSync(sampleCataloguePath(), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(300);
    const violations: string[] = [];
    for (const line of lines) violations.push(...(await violationsOf(JSON.parse(line))));
    expect(violations.slice(0, 10)).toEqual([]);
  });

  it('for titles and names with characters beyond U+FFFF (emoji, CJK Extension B, mathematical letters)', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    raw['title'] = 'Tracking 🦠 spread with 𝔽-modules in 𠀋 villages';
    raw['creators'] = [{ creator: 'Zhang, 𠀋' }];
    expect(await violationsOf(raw)).toEqual([]);
  });

  it('for books, series known by id only, ISSNs and ISBNs that are none, and disciplines with clashing ids', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      {
        contentType: 'Book',
        publicationName: 'Methods in Molecular Biology',
        issn: '1064-3745',
        printIsbn: '978-1-0716-3972-6',
        volume: '1351',
      },
      { contentType: 'Book', journalId: '7651', issn: undefined, eIssn: undefined },
      {
        contentType: 'Chapter',
        publicationType: 'Book',
        journalId: '7651',
        issn: undefined,
        eIssn: undefined,
        printIsbn: '978-1-0716-3972-6',
      },
      { issn: 'n/a', eIssn: '15733890', printIsbn: 'unknown' },
      // Pages of works whose schema.org class has no page properties: BIBO's only.
      {
        contentType: 'Book',
        publicationName: 'Methods in Molecular Biology',
        issn: '1064-3745',
        printIsbn: '978-1-0716-3972-6',
        startingPage: 'S15-S20, S22',
        endingPage: '',
      },
      {
        contentType: 'Protocol',
        publicationType: undefined,
        publicationName: undefined,
        journalId: undefined,
        issn: undefined,
        eIssn: undefined,
        volume: undefined,
        number: undefined,
        startingPage: 'S15-S20, S22',
        endingPage: '',
      },
      { disciplines: [{ term: 'Physics' }, { id: '1', term: 'Chemistry' }, { id: '1', term: 'Biology' }] },
    ];
    for (const variant of variants)
      expect(await violationsOf({ ...raw, ...variant }), JSON.stringify(variant)).toEqual([]);
  });

  it('test/fixtures/shacl/full-records.ttl is what the mapper writes for its two records, hashes aside (the fixture follows the model)', () => {
    const records = [
      {
        contentType: 'Article',
        identifier: 'doi:10.5555/full-1',
        doi: '10.5555/full-1',
        language: 'en',
        url: [
          { format: '', platform: '', value: 'http://dx.doi.org/10.5555/full-1' },
          { format: 'html', platform: '', value: 'https://link.springer.com/article/10.5555/full-1' },
          {
            format: 'pdf',
            platform: 'springerlink',
            value: 'https://link.springer.com/content/pdf/10.5555/full-1.pdf',
          },
        ],
        title: 'Navigating metabolomics software',
        creators: [{ creator: 'Carberry, Josiah', ORCID: '0000-0002-1825-0097' }, { creator: 'Spicer, Rachel' }],
        publicationName: 'Metabolomics',
        openaccess: 'true',
        publisher: 'Springer',
        publisherName: 'Springer US',
        publicationDate: '2017-08-09',
        publicationType: 'Journal',
        issn: '1573-3882',
        eIssn: '1573-3890',
        volume: '13',
        number: '9',
        issueType: 'Regular',
        topicalCollection: 'Software',
        genre: ['ReviewPaper'],
        startingPage: '1',
        endingPage: '16',
        journalId: '11306',
        onlineDate: '2017-08-01',
        coverDate: '2017-09',
        copyright: 'The Author(s)',
        abstract: 'We list the tools.',
        conferenceInfo: [{ confName: 'Metabolomics 2017' }],
        subjects: ['Metabolomics', 'Software'],
        disciplines: [{ id: '3012', term: 'Biochemistry' }],
      },
      {
        contentType: 'Chapter',
        identifier: 'doi:10.5555/chapter-1',
        doi: '10.5555/chapter-1',
        title: 'Methods in brief',
        creators: [],
        publicationName: 'Protocols',
        publisher: 'Springer',
        publisherName: 'Humana',
        disciplines: [{ id: '', term: 'Life Sciences' }],
        publicationDate: '2016-02-29',
        publicationType: 'Book',
        printIsbn: '978-3-319-24277-4',
        electronicIsbn: '978-3-319-24278-1',
        issn: '1064-3745',
        eIssn: '1940-6029',
        journalId: '7651',
        volume: '2',
        startingPage: 'S15-S20, S22',
        endingPage: '',
      },
    ];
    // Names from content (list cells, files, conferences) compared by their form, not their hash: which hash
    // function names them is the mapper's choice, and the shapes check only the form (#authors-<12 hex>).
    const text = (q: RDF.Quad) =>
      `${termText(q.subject)} ${termText(q.predicate)} ${termText(q.object)}`.replace(
        /#(authors|authorship|encoding|conference)-[0-9a-f]{12}>/g,
        '#$1-<hash>>',
      );
    const mapped = records.map((r) => mapRecord(normalizeRecord(r)));
    expect(mapped.flatMap((m) => m.notes)).toEqual([]);
    const fixture = new Set(fixtureQuads('full-records.ttl').map(text));
    const written = new Set(mapped.flatMap((m) => m.quads).map(text));
    expect([...written].filter((t) => !fixture.has(t))).toEqual([]);
    expect([...fixture].filter((t) => !written.has(t))).toEqual([]);
  });

  it('and the validator notices when the mapping breaks (a record without its title)', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!);
    const mapped = mapRecord(normalizeRecord(raw));
    const outcome = await validator.validateRecord(mapped.quads.filter((q) => !q.predicate.value.endsWith('/title')));
    expect(outcome.conforms).toBe(false);
    expect(outcome.results.map((r) => r.shape.value.split('#')[1])).toContain('Work-title');
  });
});
