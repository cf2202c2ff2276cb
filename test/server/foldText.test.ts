import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { foldText, tokenize } from '../../src/server/foldText.js';

/** The definition: fold the whole text, then split on anything that is not a letter or a digit. */
function reference(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

describe('tokenize', () => {
  it('splits on punctuation and folds case and accents', () => {
    expect(tokenize('Navigating freely-available software tools')).toEqual([
      'navigating',
      'freely',
      'available',
      'software',
      'tools',
    ]);
    expect(tokenize('Cañueto, Daniel')).toEqual(['canueto', 'daniel']);
    expect(tokenize('protein–ligand β-lactam')).toEqual(['protein', 'ligand', 'β', 'lactam']);
    expect(tokenize('日本における森林生態系の長期変動')).toEqual(['日本における森林生態系の長期変動']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,;- ')).toEqual([]);
  });

  it('agrees with the definition on generated titles, names and subjects', () => {
    for (const r of generateRecords(400, 2)) {
      for (const text of [r.title, r.publicationName, ...r.creators.map((c) => c.creator), ...r.subjects]) {
        expect(tokenize(text)).toEqual(reference(text));
      }
    }
  });
});

describe('foldText', () => {
  it('folds case, accents and white space', () => {
    expect(foldText('  Life   Sciences ')).toBe('life sciences');
    expect(foldText('Éducation et Sociétés')).toBe('education et societes');
  });
});
