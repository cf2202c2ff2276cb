import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/parse/decodeUtf8.js';

async function decoded(chunks: Uint8Array[]): Promise<string> {
  let text = '';
  for await (const piece of decodeUtf8(
    (async function* () {
      yield* chunks;
    })(),
  ))
    text += piece;
  return text;
}

/** Node's StringDecoder, the decoder used before: the text must not change. */
function byStringDecoder(chunks: Uint8Array[]): string {
  const d = new StringDecoder('utf8');
  return (chunks.map((c) => d.write(Buffer.from(c))).join('') + d.end()).replace(/^\uFEFF/, '');
}

describe('decodeUtf8', () => {
  it('gives back each chunk once decoded, one whose end is carried once the next is read, and decodes the same when a chunk given back is read into again', async () => {
    const pool = [0x41, 0x0a, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff];
    let seed = 11;
    const next = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let t = 0; t < 500; t++) {
      const bytes = Uint8Array.from({ length: 1 + next(16) }, () => pool[next(pool.length)]!);
      const cuts = [next(bytes.length + 1), next(bytes.length + 1), next(bytes.length + 1)].sort((x, y) => x - y);
      const chunks = [0, ...cuts].map((at, i, all) => Buffer.from(bytes.subarray(at, all[i + 1] ?? bytes.length)));
      const expected = byStringDecoder(chunks.map((c) => Buffer.from(c)));
      const given: Uint8Array[] = [];
      let read = 0;
      let text = '';
      for await (const piece of decodeUtf8(
        (async function* () {
          for (const c of chunks) {
            read++;
            yield c;
          }
        })(),
        (c) => {
          // Given back no later than when the chunk after it is read, and only once.
          expect(read - chunks.indexOf(c as Buffer)).toBeLessThanOrEqual(2);
          given.push(c);
          c.fill(0x7a); // read into again
        },
      ))
        text += piece;
      expect(text).toBe(expected);
      expect(new Set(given).size).toBe(given.length);
      // The last chunk, when its end is carried, is decoded at the end and not given back: all the others are.
      expect(given.length).toBeGreaterThanOrEqual(chunks.length - 1);
    }
  });

  it('joins characters cut between chunks and drops one leading BOM only', async () => {
    const bytes = Buffer.from('\uFEFFé€😀\uFEFF', 'utf8');
    const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4, 9), bytes.subarray(9)];
    expect(await decoded(chunks)).toBe('é€😀\uFEFF');
  });

  it('turns invalid and cut-off sequences into U+FFFD as StringDecoder did, however the input is chunked', async () => {
    const pool = [
      0x41, 0x0a, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xff, 0xc0, 0xf4, 0x90, 0xef, 0xbb,
      0xbf,
    ];
    let seed = 7;
    const next = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let t = 0; t < 2000; t++) {
      const bytes = Uint8Array.from({ length: 1 + next(12) }, () => pool[next(pool.length)]!);
      const [a, b] = [next(bytes.length + 1), next(bytes.length + 1)].sort((x, y) => x - y) as [number, number];
      const chunks = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
      expect(await decoded(chunks)).toBe(byStringDecoder(chunks));
    }
    expect(await decoded([Uint8Array.from([0x41, 0xe2, 0x82])])).toBe('A\uFFFD');
  });

  it('gives reads of 1 MiB as text of one byte a character when it is ASCII (a streaming TextDecoder gave two, outside the heap)', async () => {
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(2 ** 20, 'x'));
    const held: string[] = [];
    const strings = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external - m.arrayBuffers;
    };
    const before = strings();
    for await (const text of decodeUtf8(
      (async function* () {
        yield* chunks;
      })(),
    ))
      held.push(text);
    // 16 MiB of text held: about 16 MiB more (32 with two bytes a character).
    expect(strings() - before).toBeLessThan(24 * 2 ** 20);
    expect(held.join('')).toBe('x'.repeat(2 ** 24));
  });
});
