import { describe, expect, it } from 'vitest';
import { recordCleaners } from '../../src/record/recordCleaners.js';
import { cleanText, mayNeedLineCleaning } from '../../src/record/cleanText.js';
import { collapseWhitespace } from '../../src/record/collapseWhitespace.js';

/** What `line` gives, step by step (each step's own test, none skipped). */
function lineByStep(value: string): string {
  return collapseWhitespace(cleanText(value).text.trim());
}

describe('recordCleaners().line', () => {
  it('gives what cleaning, trimming and collapsing give, for every UTF-16 code unit alone, doubled and at either end', () => {
    const { line } = recordCleaners([]);
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const value of [`a${c}b`, `a${c}${c}b`, `${c}ab`, `ab${c}`, ` a${c}`]) {
        expect(line(value, 'title')).toBe(lineByStep(value));
      }
    }
  });

  it('finds nothing to do in plain text but single spaces, and trims a space at either end', () => {
    const notes: string[] = [];
    const { line } = recordCleaners(notes);
    for (const [value, expected] of [
      ['Müller, J.-P. and Ålesund', 'Müller, J.-P. and Ålesund'],
      [' leading', 'leading'],
      ['trailing ', 'trailing'],
      [' both ', 'both'],
      ['', ''],
      [' ', ''],
    ]) {
      expect(mayNeedLineCleaning(value!)).toBe(false);
      expect(line(value!, 'title')).toBe(expected);
    }
    expect(notes).toEqual([]);
  });

  it('notes collapsed white space and cleaned characters as before', () => {
    const notes: string[] = [];
    const { line } = recordCleaners(notes);
    expect(line('two  spaces', 'title')).toBe('two spaces');
    expect(line('tab\there', 'title')).toBe('tab here');
    expect(line('bell\u0007', 'subjects', 0)).toBe('bell');
    expect(mayNeedLineCleaning('no\u00A0break')).toBe(true);
    expect(line('no\u00A0break', 'keywords', 1)).toBe('no break');
    // one white-space note a field (the title's second is not noted), one for each string whose characters changed
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^title: line breaks, tabs and runs of white space collapsed/);
    expect(notes[1]).toMatch(/^subjects\[0\]: removed or replaced 1 character/);
    expect(notes[2]).toMatch(/^keywords: line breaks/);
  });
});
