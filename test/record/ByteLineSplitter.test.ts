import { describe, expect, it } from 'vitest';
import { ByteLineSplitter } from '../../src/record/ByteLineSplitter.js';
import { type Line, LineSplitter } from '../../src/record/LineSplitter.js';

function split(bytes: Buffer, cuts: number[], maxChars: number): Line[] {
  const splitter = new ByteLineSplitter(maxChars);
  const out: Line[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    out.push(...splitter.push(bytes.subarray(from, at)));
    from = at;
  }
  return [...out, ...splitter.end()];
}

/** What LineSplitter gives for the text of the same bytes, decoded whole. */
function asText(bytes: Buffer, maxChars: number): Line[] {
  const splitter = new LineSplitter(maxChars);
  return [...splitter.push(new TextDecoder().decode(bytes)), ...splitter.end()];
}

describe('ByteLineSplitter', () => {
  it('cuts bytes into lines decoded whole, a line or a character spanning chunks joined, with or without a last line break', () => {
    const text = 'a\nbé\n\n中文 𝔘\nd';
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++)
      expect(split(bytes, [cut], 100), `cut at ${cut}`).toEqual(['a', 'bé', '', '中文 𝔘', 'd']);
    expect(split(Buffer.from('a\n'), [], 100)).toEqual(['a']);
    expect(split(Buffer.alloc(0), [], 100)).toEqual([]);
  });

  it('decodes invalid UTF-8 as a whole decode does (U+FFFD), wherever the chunks are cut', () => {
    const bytes = Buffer.concat([
      Buffer.from('ok\n'),
      Buffer.from([0xe4, 0xb8, 0x0a, 0xff, 0x41, 0xf0, 0x9d]),
      Buffer.from('\nz'),
    ]);
    const whole = asText(bytes, 100);
    expect(whole).toEqual(['ok', '\uFFFD', '\uFFFDA\uFFFD', 'z']);
    for (let cut = 0; cut <= bytes.length; cut++) expect(split(bytes, [cut], 100), `cut at ${cut}`).toEqual(whole);
  });

  it('decodes a line as TextDecoder with ignoreBOM does: a byte order mark kept, each invalid sequence as it says', () => {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const lines = [
      [0xef, 0xbb, 0xbf, 0x41],
      [0xc0, 0x80, 0x41],
      [0xed, 0xa0, 0x80, 0x42],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82, 0x41, 0xe2, 0x82, 0xac],
      [0xf0, 0x9f, 0x98, 0x80, 0xf0, 0x9f, 0x98],
      [0x80, 0xbf, 0xfe, 0xff, 0xc3, 0xa9],
    ];
    const bytes = Buffer.concat(lines.flatMap((line) => [Buffer.from(line), Buffer.from('\n')]));
    expect(split(bytes, [], 100)).toEqual(lines.map((line) => decoder.decode(Uint8Array.from(line))));
  });

  it('gives a line longer than maxChars characters as its start and length only, as LineSplitter does, and goes on', () => {
    const long = 'x'.repeat(450);
    const bytes = Buffer.from(`ok\n${long}\nnext`);
    expect(split(bytes, [50, 103, 303], 250)).toEqual(['ok', { head: long.slice(0, 200), chars: 450 }, 'next']);
    expect(split(bytes, [50, 103, 303], 250)).toEqual(asText(bytes, 250));
    expect(split(Buffer.from('y'.repeat(10)), [], 5)).toEqual([{ head: 'y'.repeat(10), chars: 10 }]);
  });

  it('counts characters, not bytes, against the limit (two-, three- and four-byte sequences)', () => {
    for (const ch of ['é', '中', '𝔘']) {
      const line = ch.repeat(100);
      const bytes = Buffer.from(`${line}\n${line}x\n`);
      // 𝔘 is two UTF-16 code units, as the string's length counts it.
      const max = line.length;
      for (const cut of [0, 7, bytes.length >> 1])
        expect(split(bytes, [cut], max)).toEqual([line, { head: `${line}x`.slice(0, 200), chars: max + 1 }]);
      expect(split(bytes, [7], max)).toEqual(asText(bytes, max));
    }
  });

  it('gives back each chunk once, when no part of it is held, and its lines come out right after it is read into again', () => {
    const text = `ab\ncd${'x'.repeat(40)}ef\ngh\n${'y'.repeat(300)}\nlast`;
    const bytes = Buffer.from(text);
    for (const [cuts, max] of [
      [[5, 20, 48, 60, 200, 350], 100],
      [[1, 2, 3, 52, 55], 1000],
      [[3, 6, 9], 20],
    ] as const) {
      const chunks: Buffer[] = [];
      const given: Buffer[] = [];
      // A given-back chunk is overwritten at once, as a read into it again would.
      const splitter = new ByteLineSplitter(max, (c) => {
        given.push(c as Buffer);
        (c as Buffer).fill(0x7a);
      });
      const out: Line[] = [];
      let from = 0;
      for (const at of [...cuts, bytes.length]) {
        const chunk = Buffer.from(bytes.subarray(from, at));
        chunks.push(chunk);
        out.push(...splitter.push(chunk));
        // Held: the chunks of the line not ended yet (its bytes, unless it is too long); the others given back.
        expect(given.every((c) => chunks.includes(c))).toBe(true);
        from = at;
      }
      out.push(...splitter.end());
      expect(out, `cuts ${cuts.join()}`).toEqual(split(bytes, [...cuts], max));
      expect(new Set(given).size).toBe(given.length);
      expect(given.length).toBe(chunks.length);
    }
  });

  it('gives back the chunks of a line too long as it reads them: none is held', () => {
    const given: Uint8Array[] = [];
    const splitter = new ByteLineSplitter(10, (c) => given.push(c));
    const first = Buffer.from('ok\n' + 'x'.repeat(8));
    splitter.push(first);
    expect(given).toEqual([]);
    const second = Buffer.from('x'.repeat(8));
    splitter.push(second);
    // The line is longer than 10: its start dropped, both chunks given back.
    expect(given).toEqual([first, second]);
    for (let i = 0; i < 5; i++) {
      const more = Buffer.from('x'.repeat(8));
      splitter.push(more);
      expect(given[given.length - 1]).toBe(more);
    }
    expect(splitter.end()).toEqual([{ head: 'x'.repeat(16), chars: 56 }]);
  });

  it('never holds more than the limit of a line, whatever the chunks, and gives the lines around a long one intact', () => {
    const max = 1000;
    for (const [char, bytesOfMax] of [
      ['x', max],
      ['\u00e9', 2 * max],
      ['\u4e2d', 3 * max],
    ] as const) {
      const long = char.repeat(5000);
      for (const end of ['', '\n', '\r\n']) {
        const bytes = Buffer.from(`first\n${long}${end}last\n`);
        for (const size of [1, 7, 333, 999, 1001, 5000, bytes.length]) {
          const splitter = new ByteLineSplitter(max);
          const out: Line[] = [];
          for (let at = 0; at < bytes.length; at += size) {
            out.push(...splitter.push(bytes.subarray(at, at + size)));
            expect(splitter.pendingBytes).toBeLessThanOrEqual(bytesOfMax);
          }
          out.push(...splitter.end());
          const tail = end === '' ? `${long}last` : end === '\r\n' ? `${long}\r` : long;
          const longLine = { head: tail.slice(0, 200), chars: tail.length };
          expect(out, `${char} ${JSON.stringify(end)} ${size}`).toEqual(
            end === '' ? ['first', longLine] : ['first', longLine, 'last'],
          );
        }
      }
    }
  });
});
