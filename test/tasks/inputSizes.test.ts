import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { estimatedTextBytes, storedBytes } from '../../src/tasks/inputSizes.js';

const dir = mkdtempSync(join(tmpdir(), 'input-sizes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('storedBytes', () => {
  it('sums the files as stored; null with stdin; nothing for a missing file', () => {
    writeFileSync(join(dir, 'a.nt'), 'x'.repeat(100));
    writeFileSync(join(dir, 'b.nt.gz'), gzipSync('y'.repeat(1000)));
    const gz = gzipSync('y'.repeat(1000)).length;
    expect(storedBytes([join(dir, 'a.nt'), join(dir, 'b.nt.gz'), join(dir, 'missing.nt')])).toBe(100 + gz);
    expect(storedBytes([join(dir, 'a.nt'), '-'])).toBeNull();
  });
});

describe('estimatedTextBytes', () => {
  it('takes a plain file as it is, and a gzip file by its trailer (ISIZE) when one member says more than 4 times its size', () => {
    const text = 'line of RDF text that repeats\n'.repeat(20_000);
    writeFileSync(join(dir, 'big.nt.gz'), gzipSync(text));
    expect(estimatedTextBytes([join(dir, 'big.nt.gz')])).toBe(text.length);
    writeFileSync(join(dir, 'p.nt'), text);
    expect(estimatedTextBytes([join(dir, 'p.nt'), '-', join(dir, 'missing.nt')])).toBe(text.length);
  });

  it('takes 4 times the size of a file of many gzip members (an export: ISIZE says the last member only)', () => {
    const members = Buffer.concat(
      [...Array(50).keys()].map((i) => gzipSync(`<urn:x:${i}> <urn:x:p> "${Math.random()}" .\n`.repeat(20))),
    );
    writeFileSync(join(dir, 'export.nt.gz'), members);
    expect(estimatedTextBytes([join(dir, 'export.nt.gz')])).toBe(members.length * 4);
  });
});
