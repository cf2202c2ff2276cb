import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import {
  authorListOrder,
  doiAgreement,
  fillMessage,
  isValidOrcid,
  orcidCheckCharacter,
  orcidCheckDigit,
} from '../../../src/shacl/engine/nativeConstraints.js';
import { RecordDataset } from '../../../src/shacl/shaclEngine/RecordDataset.js';
import { isCalendarDate } from '../../../src/rdf/calendar.js';

const { namedNode, quad } = DataFactory;

describe('orcidCheckCharacter', () => {
  it('computes ISO 7064 MOD 11-2 over the first 15 digits', () => {
    expect(orcidCheckCharacter('0000-0002-1825-0097')).toBe('7');
    expect(orcidCheckCharacter('0000-0001-5109-3700')).toBe('0');
    expect(orcidCheckCharacter('0000-0002-1694-233X')).toBe('X');
  });

  it('isValidOrcid checks the form and the check character', () => {
    expect(isValidOrcid('0000-0002-1825-0097')).toBe(true);
    expect(isValidOrcid('0000-0002-1825-0098')).toBe(false);
    expect(isValidOrcid('0000-0002-1694-233x')).toBe(false);
    expect(isValidOrcid('0000000218250097')).toBe(false);
  });
});

describe('isCalendarDate', () => {
  it('accepts real days, leap days and time zones', () => {
    for (const d of ['2017-08-09', '2016-02-29', '2000-02-29', '2017-12-31Z', '2017-01-01+05:30'])
      expect(isCalendarDate(d), d).toBe(true);
  });
  it('refuses days that do not exist', () => {
    for (const d of [
      '2015-02-30',
      '2015-02-29',
      '1900-02-29',
      '2017-04-31',
      '2017-13-01',
      '2017-00-10',
      '2017-01-00',
      '2017-1-1',
    ])
      expect(isCalendarDate(d), d).toBe(false);
  });
});

describe('authorListOrder', () => {
  const base = 'https://w3id.org/scholarly-rdf/doi/10.1/x#';
  const work = namedNode('https://doi.org/10.1/x');
  const n = (l: string) => namedNode(base + l);
  const orcid = namedNode('https://orcid.org/0000-0002-1825-0097');
  const first = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#first');
  const rest = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#rest');
  const nil = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#nil');
  const list = namedNode('http://purl.org/ontology/bibo/authorList');
  const problems = (quads: ReturnType<typeof quad>[]) =>
    authorListOrder(work, new RecordDataset(quads)).map(
      (r) => `${r.bindings!['problem']} ${r.value.value.replace(base, '')}`,
    );
  // Cells named by their content (#authors-<hash>), persons by ORCID iD or name: no name says a position.
  const [c1, c2] = [n('authors-2b52c7ad207b'), n('authors-38dabc948094')];

  it('finds nothing wrong in a good list, in whatever order the list gives the authors', () => {
    expect(
      problems([
        quad(work, list, c1),
        quad(c1, first, orcid),
        quad(c1, rest, c2),
        quad(c2, first, n('author-spicer-rachel')),
        quad(c2, rest, nil),
      ]),
    ).toEqual([]);
    expect(
      problems([
        quad(work, list, c1),
        quad(c1, first, n('author-spicer-rachel')),
        quad(c1, rest, c2),
        quad(c2, first, orcid),
        quad(c2, rest, nil),
      ]),
    ).toEqual([]);
    // Names that read like positions (the model before issue 17) say no order either.
    expect(
      problems([
        quad(work, list, c1),
        quad(c1, first, n('author-2')),
        quad(c1, rest, c2),
        quad(c2, first, n('author-1')),
        quad(c2, rest, nil),
      ]),
    ).toEqual([]);
  });

  it('finds a list that does not end, a cycle, a person twice', () => {
    expect(problems([quad(work, list, c1), quad(c1, first, orcid)])).toEqual([
      'the list does not end in rdf:nil authors-2b52c7ad207b',
    ]);
    expect(problems([quad(work, list, c1), quad(c1, first, orcid), quad(c1, rest, c1)])).toEqual([
      'the list does not end in rdf:nil authors-2b52c7ad207b',
    ]);
    expect(
      problems([
        quad(work, list, c1),
        quad(c1, first, orcid),
        quad(c1, rest, c2),
        quad(c2, first, n('author-spicer-rachel')),
        quad(c2, rest, c1),
      ]),
    ).toEqual(['the list does not end in rdf:nil authors-2b52c7ad207b']);
    expect(
      problems([
        quad(work, list, c1),
        quad(c1, first, orcid),
        quad(c1, rest, c2),
        quad(c2, first, orcid),
        quad(c2, rest, nil),
      ]),
    ).toEqual(['a person appears more than once in the list https://orcid.org/0000-0002-1825-0097']);
  });
});

describe('orcidCheckDigit', () => {
  const SAME_AS = 'http://schema.org/sameAs';
  const rows = (focus: string, quads: [string, string, string][]) =>
    orcidCheckDigit(
      namedNode(focus),
      new RecordDataset(quads.map(([s, p, o]) => quad(namedNode(s), namedNode(p), namedNode(o)))),
    ).map((r) => `${r.path?.value ?? '-'} ${r.value.value} ${r.bindings!['expected']}`);

  it("checks the person's own IRI when it is an ORCID iD (no path), and ORCID IRIs in schema:sameAs", () => {
    expect(rows('https://orcid.org/0000-0002-1825-0097', [])).toEqual([]);
    expect(rows('https://orcid.org/0000-0002-1825-0098', [])).toEqual(['- https://orcid.org/0000-0002-1825-0098 7']);
    const person = 'https://w3id.org/scholarly-rdf/doi/10.1/x#author-doe-jane';
    expect(rows(person, [[person, SAME_AS, 'https://orcid.org/0000-0002-1825-0098']])).toEqual([
      `${SAME_AS} https://orcid.org/0000-0002-1825-0098 7`,
    ]);
    // Not ORCID iDs: a journal's link to the ISSN Portal, an iD over http.
    expect(
      rows('https://w3id.org/scholarly-rdf/journal/1', [
        ['https://w3id.org/scholarly-rdf/journal/1', SAME_AS, 'https://portal.issn.org/resource/ISSN/1573-3882'],
      ]),
    ).toEqual([]);
    expect(rows('http://orcid.org/0000-0002-1825-0098', [])).toEqual([]);
  });

  it('reads schema:sameAs in the https namespace too (dumps written with --schema-https)', () => {
    const person = 'https://w3id.org/scholarly-rdf/doi/10.1/x#author-doe-jane';
    expect(rows(person, [[person, 'https://schema.org/sameAs', 'https://orcid.org/0000-0002-1825-0098']])).toEqual([
      'https://schema.org/sameAs https://orcid.org/0000-0002-1825-0098 7',
    ]);
  });
});

describe('doiAgreement', () => {
  const doi = namedNode('http://purl.org/ontology/bibo/doi');
  const identifier = namedNode('http://schema.org/identifier');
  const { literal } = DataFactory;
  const problems = (work: string, quads: [RDF.NamedNode, string][]) =>
    doiAgreement(namedNode(work), new RecordDataset(quads.map(([p, o]) => quad(namedNode(work), p, literal(o))))).map(
      (r) => `${r.path!.value.split(/[/#]/).pop()} ${r.value.value}`,
    );

  it('finds nothing when IRI, DOI and identifier agree (case-insensitively, as DOIs do)', () => {
    expect(
      problems('https://doi.org/10.1007/S1', [
        [doi, '10.1007/s1'],
        [identifier, 'doi:10.1007/S1'],
      ]),
    ).toEqual([]);
  });

  it('finds an IRI of another DOI, and an identifier of another DOI', () => {
    expect(
      problems('https://doi.org/10.1007/s2', [
        [doi, '10.1007/s1'],
        [identifier, 'doi:10.1007/s3'],
      ]),
    ).toEqual(['doi 10.1007/s1', 'identifier doi:10.1007/s3']);
  });

  it('reads schema:identifier in the https namespace too (dumps written with --schema-https)', () => {
    expect(
      problems('https://doi.org/10.1007/s1', [
        [doi, '10.1007/s1'],
        [namedNode('https://schema.org/identifier'), 'doi:10.1007/s3'],
      ]),
    ).toEqual(['identifier doi:10.1007/s3']);
  });

  it('leaves the IRI of a DOI with characters the IRI encodes to the other shapes', () => {
    expect(problems('https://doi.org/10.1002/a%3Cb%3E', [[doi, '10.1002/a<b>']])).toEqual([]);
  });
});

describe('fillMessage', () => {
  it('fills {?var} and {$var}, leaves unknown ones', () => {
    expect(fillMessage('a {?x} b {$y} c {?z}', { x: '1', y: '2' })).toBe('a 1 b 2 c {?z}');
  });
});
