import { describe, expect, it } from 'vitest';
import { HeadKept } from '../../src/tasks/HeadKept.js';

/** A source of `n` one-byte chunks that counts its reads. */
function source(n: number): { input: AsyncIterable<Uint8Array>; reads: () => number } {
  let reads = 0;
  return {
    input: (async function* () {
      for (let i = 0; i < n; i++) {
        reads++;
        yield Uint8Array.of(i);
      }
    })(),
    reads: () => reads,
  };
}

async function take(chunks: AsyncIterator<Uint8Array>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const next = await chunks.next();
    if (next.done) break;
    out.push(next.value[0]!);
  }
  return out;
}

describe('HeadKept', () => {
  it('gives the chunks a sniffer read again from the start, then the rest, reading the source once', async () => {
    const { input, reads } = source(5);
    const kept = new HeadKept(input);
    expect(await take(kept.chunks(), 2)).toEqual([0, 1]);
    expect(await take(kept.again(), 10)).toEqual([0, 1, 2, 3, 4]);
    expect(reads()).toBe(5);
  });

  it('keeps nothing once told to forget: what is read on through chunks() (an RDF document parsed from its text) is not held', async () => {
    const { input } = source(5);
    const kept = new HeadKept(input);
    const chunks = kept.chunks();
    expect(await take(chunks, 2)).toEqual([0, 1]);
    kept.forget();
    expect(await take(chunks, 2)).toEqual([2, 3]);
    // Nothing read before or after forget() was kept: again() has only what was never read.
    expect(await take(kept.again(), 10)).toEqual([4]);
  });
});
