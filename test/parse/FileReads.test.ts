import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReads } from '../../src/parse/FileReads.js';

const dir = mkdtempSync(join(tmpdir(), 'FileReads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FileReads', () => {
  const path = join(dir, 'f.txt');
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(''));
  writeFileSync(path, bytes);

  it('reads a file in reads of its size, the last short, into a buffer given back (reused) or a new one', async () => {
    const reads = new FileReads(path, 4096);
    const seen: Buffer[] = [];
    const memory = new Set<ArrayBufferLike>();
    let i = 0;
    for await (const chunk of await reads.open()) {
      seen.push(Buffer.from(chunk));
      memory.add(chunk.buffer);
      // Every other read given back: the next is read into its memory.
      if (i++ % 2 === 0) reads.release(chunk);
    }
    expect(Buffer.concat(seen)).toEqual(bytes);
    expect(seen.slice(0, -1).every((c) => c.length === 4096)).toBe(true);
    expect(seen.at(-1)!.length).toBe(bytes.length % 4096);
    // Reads 1 and 2 in one buffer, 3 and 4 in another...: half as many buffers as reads, rounded up.
    expect(memory.size).toBe(Math.ceil(seen.length / 2));
  });

  it('reads into new memory what is not given back, and ignores what it did not read or was given back twice', async () => {
    const reads = new FileReads(path, 4096);
    const memory = new Set<ArrayBufferLike>();
    let n = 0;
    for await (const chunk of await reads.open()) {
      memory.add(chunk.buffer);
      n++;
      reads.release(Buffer.from(chunk)); // a copy: not a read
    }
    expect(memory.size).toBe(n);
    const again = new FileReads(path, 4096);
    const first: Buffer[] = [];
    for await (const chunk of await again.open()) {
      again.release(chunk);
      again.release(chunk); // twice: the buffer is kept once
      first.push(chunk);
    }
    // One buffer for all the reads.
    expect(new Set(first.map((c) => c.buffer)).size).toBe(1);
  });

  it('reads from a byte on when told, to the end, in reads of its size', async () => {
    for (const start of [0, 1, 4095, 4096, bytes.length - 1, bytes.length, bytes.length + 10]) {
      const reads = new FileReads(path, 4096);
      const got: Buffer[] = [];
      for await (const chunk of await reads.open(start)) {
        expect(chunk.length).toBeLessThanOrEqual(4096);
        got.push(Buffer.from(chunk));
        reads.release(chunk);
      }
      expect(Buffer.concat(got)).toEqual(bytes.subarray(start));
    }
  });

  it('fails to open as fs.open does', async () => {
    await expect(new FileReads(join(dir, 'missing'), 10).open()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
