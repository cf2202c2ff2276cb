import { describe, expect, it } from 'vitest';
import { type Line, LineSplitter } from '../../src/record/LineSplitter.js';

function split(pieces: string[], maxChars: number): Line[] {
  const splitter = new LineSplitter(maxChars);
  return [...pieces.flatMap((p) => splitter.push(p)), ...splitter.end()];
}

describe('LineSplitter', () => {
  it('cuts pieces into lines, joining a line that spans pieces, with or without a last line break', () => {
    expect(split(['a\nb', 'c\n', '\nd'], 100)).toEqual(['a', 'bc', '', 'd']);
    expect(split(['a\n'], 100)).toEqual(['a']);
    expect(split([''], 100)).toEqual([]);
  });

  it('gives a line longer than maxChars as its start and length only, and goes on with the next line', () => {
    const long = 'x'.repeat(450);
    const out = split(['ok\n', long.slice(0, 100), long.slice(100, 300), `${long.slice(300)}\nnext`], 250);
    expect(out).toEqual(['ok', { head: long.slice(0, 200), chars: 450 }, 'next']);
    expect(split(['y'.repeat(10)], 5)).toEqual([{ head: 'y'.repeat(10), chars: 10 }]);
  });
});
