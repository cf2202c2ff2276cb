import { beforeAll, describe, expect, it } from 'vitest';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import type { ValidationResult } from '../../src/shacl/RecordValidator.js';
import { validateStream } from '../../src/shacl/validateStream.js';
import { fixtureQuads, summary } from './shapeCases.js';

/** What test/fixtures/shacl/broken-records.ttl must give, record by record: shape, path, severity, value. */
export const BROKEN_RECORDS_EXPECTED: Readonly<Record<string, readonly string[]>> = {
  '10.5555/good-1': [],
  '10.5555/bad-date': [
    'Work-datePublished schema:datePublished Violation "2015-02-30"',
    'Work-issued dcterms:issued Violation "2015-02-30"',
  ],
  '10.5555/bad-pages': [
    'PagesEither-biboPageStart bibo:pageStart Violation -',
    'PagesEither-pageStart schema:pageStart Violation -',
  ],
  '10.5555/no-title': ['Work-name schema:name Violation -', 'Work-title dcterms:title Violation -'],
  // The person's own IRI is the iD: no path.
  '10.5555/bad-orcid': ['OrcidCheckDigitShape - Violation <https://orcid.org/0000-0002-1825-0098>'],
  '10.5555/skipped-author': [
    'Work-authorListMembers bibo:authorList/rdf:rest*/rdf:first Violation <https://w3id.org/scholarly-rdf/doi/10.5555/skipped-author#author-two-b>',
  ],
  '10.5555/issue-on-work': ['Work-noIssue bibo:issue Violation -'],
  '10.5555/creative-in-journal': ['WorkKindShape - Violation <https://doi.org/10.5555/creative-in-journal>'],
};

let native: RecordValidator;

beforeAll(async () => {
  native = await RecordValidator.create();
});

describe('a dump with broken records', () => {
  it('is reported record by record with the right shapes, paths and values', async () => {
    const got: Record<string, string[]> = {};
    const withJournal: (string | undefined)[] = [];
    for await (const { key, quads, outcome } of validateStream(fixtureQuads('broken-records.ttl'), native)) {
      got[key!] = outcome.results.map(summary).sort();
      expect(outcome.conforms).toBe(key === '10.5555/good-1');
      if (quads.some((q) => q.subject.value === 'https://w3id.org/scholarly-rdf/journal/11306')) withJournal.push(key);
    }
    expect(got).toEqual(BROKEN_RECORDS_EXPECTED);
    // The shared journal, written among the triples of each record that names it, is validated with each.
    expect(withJournal).toEqual(['10.5555/good-1', '10.5555/bad-date', '10.5555/creative-in-journal']);
  });

  it('names the problem in the messages', async () => {
    const results: ValidationResult[] = [];
    for await (const { outcome } of validateStream(fixtureQuads('broken-records.ttl'), native))
      results.push(...outcome.results);
    const message = (shape: string) => results.find((r) => r.shape.value.endsWith(`#${shape}`))!.message;
    expect(message('OrcidCheckDigitShape')).toContain(
      '<https://orcid.org/0000-0002-1825-0098> has a wrong check character (expected 7)',
    );
    expect(message('PagesEither-pageStart')).toContain('never both');
    expect(message('Work-datePublished')).toContain('xsd:date');
    expect(message('WorkKindShape')).toContain('not only schema:CreativeWork');
  });
});
