import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { DataFactory, Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { parseSimpleNTriples } from '../../src/group/parseSimpleNTriples.js';
import { TermInterner } from '../../src/shacl/engine/TermInterner.js';
import { nastyString } from '../fuzz/arbitraries.js';
import { fuzzParams } from '../fuzz/fuzzConfig.js';

/** Texts the fast path read (and n3 read the same way). */
const accepted = { count: 0 };
const MEDIA = { ntriples: 'application/n-triples', nquads: 'application/n-quads' } as const;

/** n3's quads of a text, or its error. */
function n3Parse(text: string, format: 'ntriples' | 'nquads'): RDF.Quad[] | Error {
  try {
    return new Parser({ format: MEDIA[format], blankNodePrefix: '' }).parse(text);
  } catch (err) {
    return err as Error;
  }
}

function sameQuads(a: readonly RDF.Quad[], b: readonly RDF.Quad[]): boolean {
  return a.length === b.length && a.every((q, i) => q.equals(b[i]!) && b[i]!.equals(q));
}

/** The property every text must keep: the fast path reads it as n3 does, or leaves it to n3. */
function agreesWithN3(text: string, format: 'ntriples' | 'nquads'): void {
  const fast = parseSimpleNTriples(text, format, DataFactory as unknown as RDF.DataFactory);
  sameAsLines(text, format, fast);
  if (fast === undefined) return;
  accepted.count++;
  const n3 = n3Parse(text, format);
  expect(n3, `n3 refuses what the fast path read: ${JSON.stringify(text)}`).not.toBeInstanceOf(Error);
  expect(sameQuads(fast, n3 as RDF.Quad[]), JSON.stringify(text)).toBe(true);
}

/** The text given as its lines (as the grouper keeps them: without line breaks) reads the same, or is left to n3 too. */
function sameAsLines(text: string, format: 'ntriples' | 'nquads', fast: RDF.Quad[] | undefined): void {
  if (text.includes('\r')) return;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const fromLines = parseSimpleNTriples(lines, format, DataFactory as unknown as RDF.DataFactory);
  expect(fromLines === undefined, JSON.stringify(text)).toBe(fast === undefined);
  if (fast && fromLines) expect(sameQuads(fromLines, fast), JSON.stringify(text)).toBe(true);
}

describe('parseSimpleNTriples', () => {
  it('reads the dumps this toolkit writes, all of them, as n3 does', () => {
    const writer = serializerFor('ntriples').createWriter();
    let text = writer.start();
    for (const raw of generateRecords(300, 11)) text += writer.write(mapRecord(normalizeRecord(raw)).quads);
    text += writer.end();
    const fast = parseSimpleNTriples(text, 'ntriples', DataFactory as unknown as RDF.DataFactory);
    expect(fast).toBeDefined();
    expect(fast!.length).toBeGreaterThan(300 * 50);
    expect(sameQuads(fast!, n3Parse(text, 'ntriples') as RDF.Quad[])).toBe(true);
    sameAsLines(text, 'ntriples', fast);
  });

  it('reads plain lines: spacing, comments, blank nodes, escapes, tags, datatypes, graphs', () => {
    const cases: [string, 'ntriples' | 'nquads'][] = [
      ['<http://a/s> <http://a/p> <http://a/o> .\n', 'ntriples'],
      ['<http://a/s>\t<http://a/p>\t<http://a/o>.', 'ntriples'],
      ['  <http://a/s> <http://a/p> "x" . # a comment\n# only a comment\n\n', 'ntriples'],
      ['_:b1 <http://a/p> _:b-2 .\n_:0 <http://a/p> "x"@en-GB .\n', 'ntriples'],
      ['<http://a/s> <http://a/p> "a \\"quoted\\" \\\\ \\n \\t \\r \\f \\b \\\' é 😀"@De-Ch .', 'ntriples'],
      ['<http://a/s> <http://a/p> "2020-01-02"^^<http://www.w3.org/2001/XMLSchema#date> .', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"^^<http://www.w3.org/2001/XMLSchema#string> .', 'ntriples'],
      [
        '<http://a/s> <http://a/p> "x" <http://a/g> .\n<http://a/s> <http://a/p> _:o _:g .\n<http://a/s> <http://a/p> "y" .',
        'nquads',
      ],
      ['<urn:isbn:0451450523> <http://a/p> <mailto:x@example.org> .', 'ntriples'],
    ];
    for (const [text, format] of cases) {
      const fast = parseSimpleNTriples(text, format, DataFactory as unknown as RDF.DataFactory);
      expect(fast, text).toBeDefined();
      expect(sameQuads(fast!, n3Parse(text, format) as RDF.Quad[]), text).toBe(true);
    }
  });

  it('leaves to n3 what is not plain, valid or not', () => {
    const cases: [string, 'ntriples' | 'nquads'][] = [
      ['<http://a/s> <http://a/p> "caf\\u00e9" .', 'ntriples'], // \u escape
      ['<http://a/\\u0073> <http://a/p> "x" .', 'ntriples'], // escape in an IRI
      ['<s> <http://a/p> "x" .', 'ntriples'], // relative IRI: n3's error
      ['<http://a/s> <http://a/p> "x" <http://a/g> .', 'ntriples'], // a graph in N-Triples: n3's error
      ['<http://a/s> <http://a/p> "x"@en--ltr .', 'ntriples'], // RDF 1.2 direction
      ['<http://a/s> <http://a/p> <<( <http://a/s> <http://a/p> <http://a/o> )>> .', 'ntriples'], // triple term
      ['_:é <http://a/p> "x" .', 'ntriples'], // non-ASCII label
      ['<http://a/s> <http://a/p> "x" . extra', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"', 'ntriples'],
      ['"x" <http://a/p> "x" .', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"@ .', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"@en-.', 'ntriples'],
      ['<http://a/s> <http://a/p> "x\\q" .', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString> .', 'ntriples'],
      ['<http://a/s> <http://a/p> "x"@version .', 'ntriples'],
      ['<http://a/s q> <http://a/p> "x" .', 'ntriples'],
      ['<http://a/s> <http://a/p> <http://a/o> . #x\r<http://a/s> <http://a/p> <http://a/o2> .\n', 'ntriples'], // a CR ends a comment for n3
      ['# c\r<http://a/s> <http://a/p> <http://a/o> .\n', 'ntriples'],
    ];
    for (const [text, format] of cases)
      expect(parseSimpleNTriples(text, format, DataFactory as unknown as RDF.DataFactory), text).toBeUndefined();
  });

  it('makes the terms of the factory it is given (the interner: one object per term)', () => {
    const interner = new TermInterner();
    const text = '<http://a/s> <http://a/p> "x"@EN .\n<http://a/s> <http://a/q> "x"@en .\n';
    const quads = parseSimpleNTriples(text, 'ntriples', interner.factory())!;
    expect(quads[0]!.subject).toBe(quads[1]!.subject);
    expect(quads[0]!.object).toBe(quads[1]!.object);
    expect((quads[0]!.object as RDF.Literal).language).toBe('en');
  });

  it('reads a subject written as on the line before as that term, and any other anew', () => {
    const text = [
      '<urn:a> <urn:p> "1" .',
      '<urn:a>\t<urn:p> "2" .',
      '<urn:ab> <urn:p> "3" .',
      '<urn:a> <urn:p> <urn:a> .',
      '_:a <urn:p> "4" .',
      '<urn:a><urn:p> "5" .',
    ].join('\n');
    for (const lines of [text, text.split('\n').slice(0, 5).join('\n')]) agreesWithN3(lines, 'ntriples');
    const interner = new TermInterner();
    const quads = parseSimpleNTriples(text.split('\n').slice(0, 5).join('\n'), 'ntriples', interner.factory())!;
    expect(quads.map((q) => q.subject.value)).toEqual(['urn:a', 'urn:a', 'urn:ab', 'urn:a', 'a']);
    expect(quads[1]!.subject).toBe(quads[0]!.subject);
    // No space after the subject: not plain, as before.
    expect(parseSimpleNTriples(text, 'ntriples', interner.factory())).toBeUndefined();
  });

  it('gives an IRI read again the term read before, from its own factory only, and still checks any other', () => {
    const first = new TermInterner();
    const second = new TermInterner();
    const text = '<urn:x:s> <urn:x:p> <urn:x:o> .\n<urn:x:o> <urn:x:p> <urn:x:s> .\n';
    const a = parseSimpleNTriples(text, 'ntriples', first.factory())!;
    const again = parseSimpleNTriples(text, 'ntriples', first.factory())!;
    const b = parseSimpleNTriples(text, 'ntriples', second.factory())!;
    expect(a[0]!.object).toBe(a[1]!.subject);
    expect(a[1]!.predicate).toBe(a[0]!.predicate);
    // Another factory of the same interner makes the same terms; another interner's are its own.
    expect(again[0]!.subject).toBe(a[0]!.subject);
    expect(b[0]!.subject).not.toBe(a[0]!.subject);
    expect(b[0]!.subject.equals(a[0]!.subject)).toBe(true);
    // IRIs of one length and last characters (one slot of the memo): each checked on its own.
    for (const iri of ['urn:x:o', 'urn:x o', 'urn x:o', 'urn:y:o', 'urn:x\\o']) {
      const line = `<urn:x:s> <urn:x:p> <${iri}> .\n`;
      agreesWithN3(line, 'ntriples');
      expect(parseSimpleNTriples(line, 'ntriples', first.factory()) === undefined).toBe(/[ \\]/.test(iri));
    }
  });

  it('never reads a line otherwise than n3 (property test over hostile lines)', () => {
    const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
    const safe = fc.string({ unit: fc.constantFrom(...'abcXYZ019-._~/#?:=&%'.split('')), maxLength: 10 });
    const iri = fc
      .oneof(
        w(
          8,
          safe.map((s) => `http://a/${s}`),
        ),
        w(1, fc.constantFrom('urn:x', 'x', '', 'a b', 'http://a/\\u0073')),
        w(2, nastyString(8)),
        w(
          1,
          nastyString(8).map((s) => `http://a/${s}`),
        ),
      )
      .map((s) => `<${s}>`);
    const blank = fc.oneof(
      w(4, fc.constantFrom('_:b1', '_:a-b', '_:0', '_:B_2')),
      w(1, fc.constantFrom('_:a.b', '_:-a', '_:', '_:é')),
      w(
        1,
        nastyString(4).map((s) => `_:${s}`),
      ),
    );
    const escape = (v: string) =>
      v
        .replace(/[\\"]/g, (c) => `\\${c}`)
        .replace(/\n/g, '\\n')
        .replace(/\r/g, '\\r');
    const value = fc.oneof(
      w(4, nastyString(16).map(escape)),
      w(1, nastyString(16)),
      w(1, fc.constantFrom('\\u00e9', '\\q', '\\', 'a\\"b', '\\\\')),
    );
    const suffix = fc.oneof(
      w(5, fc.constant('')),
      w(3, fc.constantFrom('@en', '@EN-gb', '@de-CH-1996', '^^<http://www.w3.org/2001/XMLSchema#date>')),
      w(
        2,
        fc.constantFrom(
          '@en-',
          '@1a',
          '@version',
          '@en--ltr',
          '^^<x>',
          '^^',
          '^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>',
          '@',
        ),
      ),
      w(
        1,
        nastyString(6).map((s) => `@${s}`),
      ),
    );
    const literal = fc.tuple(value, suffix).map(([v, x]) => `"${v}"${x}`);
    const space = fc.oneof(w(6, fc.constant(' ')), w(1, fc.constantFrom('\t', '', '  ', ' \t')));
    const end = fc.oneof(
      w(6, fc.constant(' .')),
      w(1, fc.constantFrom('.', '. # c', '.x', '', ' . #', ' .\r', ' . # c\rjunk', ' . #\r')),
    );
    const line = fc
      .tuple(
        fc.oneof(w(4, iri), w(2, blank), w(1, literal)),
        space,
        fc.oneof(w(6, iri), w(1, blank)),
        space,
        fc.oneof(iri, blank, w(3, literal)),
        fc.oneof(
          w(3, fc.constant('')),
          w(
            1,
            fc.tuple(space, fc.oneof(iri, blank)).map(([a, b]) => a + b),
          ),
        ),
        end,
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('ntriples' as const, 'nquads' as const),
        (lines, format) => {
          agreesWithN3(`${lines.join('\n')}\n`, format);
        },
      ),
      fuzzParams('parseSimpleNTriples agrees with n3', 3000),
    );
    // The property is not vacuous: the fast path did read many of the texts (about one in twelve).
    expect(accepted.count).toBeGreaterThan(50);
  });
});
