import type * as RDF from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { EntityIris, isSharedEntityIri, slug, slugSegment } from '../../src/mapping/entityIris.js';
import { encodeIriSegment } from '../../src/mapping/iri.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { HashedNamedNodeTerm, dataFactory } from '../../src/rdf/dataFactory.js';
import { hashText } from '../../src/rdf/textHash.js';
import { termsKey } from '../../src/rdf/tripleKey.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';

/** `hashText`'s lanes of a text. */
function lanesOf(text: string): number[] {
  const out = new Uint32Array(2);
  hashText(text, out, 0);
  return [...out];
}

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

describe('EntityIris.hashedNode', () => {
  const iris = new EntityIris('https://example.org/kg/');
  /** IRIs the mapper makes, and whether each is a shared entity's (the others are IRIs other records name too). */
  const made: Array<[() => string, boolean]> = [
    [() => iris.journalById('381'), true],
    [() => iris.volume(iris.journalById('381'), '43'), true],
    [() => iris.issue(iris.volume(iris.journalById('381'), '4/3'), '10'), true],
    [() => iris.seriesById('7'), true],
    [() => iris.byIssn('0256-7040'), true],
    [() => iris.journalByName('Springer', 'Journal of Ünits')!, true],
    [() => iris.book('9783030123456'), true],
    [() => iris.publisher('Springer'), true],
    [() => iris.publisher('!!!'), true],
    [() => iris.orcid('0000-0002-8765-4634'), true],
    [() => iris.orcidHttp('0000-0002-8765-4634'), false],
    [() => iris.issnPortal('0256-7040'), false],
    [() => iris.issnUrn('0256-7040'), false],
    [() => iris.discipline('3054'), true],
    [() => iris.disciplineScheme(), true],
  ];

  it('gives an IRI just made its text’s hash, under any base', () => {
    for (const base of ['https://example.org/kg/', 'http://other.example/x/']) {
      const other = new EntityIris(base);
      const more: Array<[() => string, boolean]> = [
        [() => other.journalById('381'), true],
        [() => other.disciplineScheme(), true],
      ];
      for (const [make, entity] of [...made, ...more]) {
        const iri = make();
        const node = iris.hashedNode(iri, true);
        expect(node, iri).toBeInstanceOf(HashedNamedNodeTerm);
        const hashed = node as HashedNamedNodeTerm;
        expect(hashed.value).toBe(iri);
        expect(hashed.minted).toBe(true);
        expect([hashed.hashA, hashed.hashB], iri).toEqual(lanesOf(iri));
        expect(hashed.entity, iri).toBe(entity);
        if (entity) expect(isSharedEntityIri(iri), iri).toBe(true);
      }
    }
  });

  it('says which IRIs are shared entities’ only as the test of their text does', () => {
    const says = (make: () => string) => (iris.hashedNode(make(), true) as HashedNamedNodeTerm).entity;
    expect(says(() => iris.journalById('381'))).toBe(true);
    expect(says(() => iris.orcid('0000-0002-8765-4634'))).toBe(true);
    expect(says(() => iris.issue(iris.volume(iris.journalById('381'), '43'), '10'))).toBe(true);
    for (const make of [() => iris.orcidHttp('0000-0002-8765-4634'), () => iris.issnUrn('0256-7040')])
      expect(says(make)).toBe(false);
    // a base without its `/`: `<base>journal/1` is not tested as `…/journal/1`
    const odd = new EntityIris('https://example.org/kg');
    expect(odd.journalById('1')).toBe('https://example.org/kgjournal/1');
    expect(says(() => odd.journalById('1'))).toBe(false);
    expect(says(() => odd.volume(odd.journalById('1'), '2'))).toBe(false);
  });

  it('gives no hash to an IRI it did not make lately, nor to a volume of an IRI it did not make', () => {
    iris.journalById('381');
    expect(iris.hashedNode('https://example.org/kg/journal/381', true)).toBeDefined();
    expect(iris.hashedNode('https://example.org/kg/journal/382', true)).toBeUndefined();
    for (let i = 0; i < 8; i++) iris.orcid(`0000-0002-8765-463${i}`);
    expect(iris.hashedNode('https://example.org/kg/journal/381', true)).toBeUndefined();
    const volume = iris.volume('https://example.org/kg/journal/999', '1');
    expect(volume).toBe('https://example.org/kg/journal/999/volume/1');
    expect(iris.hashedNode(volume, false)).toBeUndefined();
  });

  it('makes the nodes of mapped records’ shared entities with their text’s hash: termsKey as of plain terms', () => {
    const plain = (t: RDF.Term) => (t.termType === 'NamedNode' ? dataFactory.namedNode(t.value) : t);
    let hashed = 0;
    for (const raw of generateRecords(300, 7)) {
      const { quads } = mapRecord(normalizeRecord(raw));
      for (const q of quads) {
        for (const t of [q.subject, q.object])
          if (t instanceof HashedNamedNodeTerm) {
            hashed++;
            expect([t.hashA, t.hashB], t.value).toEqual(lanesOf(t.value));
            if (t.entity || t === q.subject) expect(isSharedEntityIri(t.value), t.value).toBe(true);
            if (t === q.subject) expect(t.entity, t.value).toBe(true);
          }
        if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') continue;
        const copy = dataFactory.quad(
          plain(q.subject) as RDF.Quad_Subject,
          q.predicate,
          plain(q.object) as RDF.Quad_Object,
        );
        expect(termsKey(q)).toBe(termsKey(copy));
      }
    }
    expect(hashed).toBeGreaterThan(3000);
  });
});
