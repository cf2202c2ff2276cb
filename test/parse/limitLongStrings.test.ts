import fc from 'fast-check';
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { LongStringScan } from '../../src/parse/limitLongStrings.js';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { fuzzParams } from '../fuzz/fuzzConfig.js';

/** The line the scan refuses the text at, cut into chunks of `size`, and the characters read then; undefined if none. */
function refusal(text: string, max: number, size: number): { line: number; read: number } | undefined {
  const scan = new LongStringScan(max);
  for (let at = 0; at < text.length; at += size) {
    const line = scan.push(text.slice(at, at + size));
    if (line !== undefined) return { line, read: Math.min(text.length, at + size) };
  }
  return undefined;
}

const SIZES = [1, 2, 3, 7, 64, 1000];

/** Turtle with every kind of quote, backslash, `#` and `<` the scan must not take for a long string. */
const TRICKY = [
  '@prefix ex: <http://ex.org/a#b> .',
  '# a comment """ that opens nothing',
  'ex:s ex:p "short \\" \\"\\"\\" still short", \'it\\\'s\', "", \'\', "#not a comment" .',
  "ex:s ex:p ex:local\\#name, <http://ex.org/x#'''> .",
  'ex:s ex:p """long with "quotes", \'\'\' and \\""" and # and <""", \'\'\'its """ \'\' \'\'\' .',
  'ex:s ex:p """"quoted" first, "" twice""" .',
  'ex:s ex:p """two\nlines\n""" .',
  '<< ex:s ex:p "<<x>>" >> ex:q "y" .',
];

describe('LongStringScan', () => {
  it('refuses a long string literal longer than the limit, naming the line it starts on, whatever the chunks', () => {
    const head = `${TRICKY.join('\n')}\n`;
    const lines = TRICKY.join('\n').split('\n').length;
    for (const quote of ['"""', "'''"]) {
      const literal = `${quote}${'a\n'.repeat(300)}${quote}`;
      const text = `${head}ex:s ex:p ex:a\\#b, ${literal} .\nex:s ex:p "after" .\n`;
      expect(new Parser().parse(text).length).toBeGreaterThan(0);
      for (const size of SIZES) {
        const start = head.length + 'ex:s ex:p ex:a\\#b, '.length;
        // At 500 characters: refused by the chunk that passes it, not at the literal's end.
        const refused = refusal(text, 500, size);
        expect(refused?.line, `${quote} ${size}`).toBe(lines + 1);
        expect(refused!.read - size).toBeLessThanOrEqual(start + 500);
        expect(refused!.read).toBeGreaterThan(start + 500);
        // Within the limit (the literal and its quotes), not refused.
        expect(refusal(text, literal.length, size)).toBeUndefined();
      }
    }
    // Chunks of one character: the literal with its quotes (106 characters) is within 106, not 105.
    const text = `ex:s ex:p """${'x'.repeat(100)}""" .`;
    expect(refusal(text, 106, 1)).toBeUndefined();
    expect(refusal(text, 105, 1)?.line).toBe(1);
  });

  it('refuses exactly when a long string is longer than the limit, for any Turtle of strings, IRIs, names and comments', () => {
    const content = fc
      .array(fc.constantFrom('a', 'é', '"', "'", '#', '<', '>', '\\"', "\\'", '\\\\', '\n', ' '), { maxLength: 40 })
      .map((parts) => parts.join(''));
    /** A long string's content: never three of its quotes in a row, nor its quote at the end. */
    const longOf = (quote: string) =>
      content.filter((c) => !c.includes(quote.repeat(3)) && !c.endsWith(quote) && !/(^|[^\\])(\\\\)*\\$/.test(c));
    const term = fc.oneof(
      fc.constantFrom(
        'ex:a',
        'ex:b\\#c',
        '<http://ex.org/x#y>',
        '"short \\" #"',
        "'it\\'s'",
        '""',
        "''",
        '1.5',
        `"say \\"hi\\" '''"`,
        `'say \\'hi\\' """'`,
      ),
      longOf('"').map((c) => `"""${c}"""`),
      longOf("'").map((c) => `'''${c}'''`),
    );
    const statement = fc
      .tuple(term, fc.constantFrom('', ' # a comment """', " # '''"))
      .map(([o, comment]) => `ex:s ex:p ${o} .${comment}`);
    fc.assert(
      fc.property(
        fc.array(statement, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 4, max: 60 }),
        (lines, max) => {
          const text = `@prefix ex: <http://ex.org/> .\n${lines.join('\n')}\n`;
          new Parser().parse(text); // Turtle (the parser agrees)
          const tokens = literalsOf(text);
          const over = tokens.find((t) => t.length > max);
          const refused = refusal(text, max, 1);
          expect(refused?.line).toBe(over?.line);
          for (const size of [3, 17, text.length]) {
            const r = refusal(text, max, size);
            // A larger chunk may hold a long literal whole (then the parser is given it): refused only at one too long.
            if (r !== undefined) expect(tokens.some((t) => t.length > max && t.line === r.line)).toBe(true);
            else expect(tokens.filter((t) => t.length > max + size)).toEqual([]);
          }
        },
      ),
      fuzzParams('LongStringScan', 300),
    );
  });
});

/** The long string literals of Turtle (strings and comments read by a simple tokenizer): length with quotes, line. */
function literalsOf(text: string): { length: number; line: number }[] {
  const out: { length: number; line: number }[] = [];
  const token =
    /"""(?:[^"\\]|\\[^]|"(?!""))*"""|'''(?:[^'\\]|\\[^]|'(?!''))*'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^>\s]*>|#[^\n]*|\\.|[^"'<#\\]+/g;
  for (const m of text.matchAll(token)) {
    const t = m[0];
    if (t.startsWith('"""') || t.startsWith("'''"))
      out.push({ length: t.length, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

describe('parseRdf of Turtle and TriG', () => {
  it('refuses a long string literal longer than maxDocumentChars, naming the line it starts on, after the triples before it', async () => {
    const text = `<http://a/s> <http://a/p> "before" .\n<http://a/s> <http://a/p> """${'line\n'.repeat(2000)}""" .\n`;
    for (const format of ['turtle', 'trig'] as const) {
      const got: string[] = [];
      const error = await (async () => {
        for await (const q of parseRdf(
          (async function* () {
            for (let i = 0; i < text.length; i += 333) yield text.slice(i, i + 333);
          })(),
          { format, source: 'long.ttl', maxDocumentChars: 1000 },
        ))
          got.push(q.object.value);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParseError);
      expect((error as ParseError).message).toBe(
        'long.ttl:2: the long string literal of line 2 is larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
      );
      expect(got.every((v) => v === 'before')).toBe(true);
      // Within the limit, read whole, whatever the chunks (those within the literal held back, then given joined).
      for (const size of [1, 333, text.length]) {
        const all: string[] = [];
        for await (const q of parseRdf(
          (async function* () {
            for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
          })(),
          { format, source: 'long.ttl', maxDocumentChars: 20_000 },
        ))
          all.push(q.object.value);
        expect(all).toEqual(['before', 'line\n'.repeat(2000)]);
      }
    }
  });
});
