import { describe, expect, it } from 'vitest';
import { EntityIris, isSharedEntityIri, slug, slugSegment } from '../../src/mapping/entityIris.js';
import { encodeIriSegment } from '../../src/mapping/iri.js';

describe('slugSegment', () => {
  const names = [
    'Smith, John A.',
    '  SPRINGER ',
    'Müller, J.-P.',
    '佐藤 花子',
    'Łukasz Żółć',
    '..',
    '-a-',
    '',
    '!!!',
    'a/b c',
    'O\u2019Brien',
    'Ça\u0301fe',
    '\u{1D400}bc',
    'x\u200Fy',
    'ﬁle',
    '10.1000/ABC.def',
  ];

  it('is the slug as an IRI path segment, for ASCII and other names alike', () => {
    for (const name of names) expect(slugSegment(name), name).toBe(encodeIriSegment(slug(name)));
  });

  it('keeps the slug of an ASCII name as it is (letters, digits and dashes need no encoding)', () => {
    expect(slugSegment('Smith, John A.')).toBe('smith-john-a');
    expect(slugSegment('  SPRINGER ')).toBe('springer');
    expect(slugSegment('!!!')).toBe('');
  });

  it('gives the same segment for a name met again, before and after its memory of recent names is cleared', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `${names[i % names.length]} ${i % 7 === 0 ? 'Ø' : ''}${i}`);
    for (let round = 0; round < 2; round++) {
      for (const name of many) expect(slugSegment(name)).toBe(encodeIriSegment(slug(name)));
    }
  });
});

describe('isSharedEntityIri', () => {
  it('names the shared entities the mapper mints, under any base, and not a record’s own nodes', () => {
    const iris = new EntityIris('https://example.org/kg/');
    for (const iri of [
      iris.journalById('381'),
      iris.volume(iris.journalById('381'), '43'),
      iris.issue(iris.volume(iris.journalById('381'), '43'), '10'),
      iris.byIssn('0256-7040'),
      iris.book('9783030123456'),
      iris.publisher('Springer'),
      iris.orcid('0000-0002-8765-4634'),
      iris.discipline('3054'),
      iris.disciplineScheme(),
    ])
      expect(isSharedEntityIri(iri), iri).toBe(true);
    for (const iri of [iris.work('10.1007/s00381-023-0000-t'), iris.owned('10.1007/x', 'author-mu')])
      expect(isSharedEntityIri(iri), iri).toBe(false);
  });
});
