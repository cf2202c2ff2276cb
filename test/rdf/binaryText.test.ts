import { describe, expect, it } from 'vitest';
import { binaryText } from '../../src/rdf/binaryText.js';

describe('binaryText', () => {
  it('is the UTF-8 bytes of a text, a character a byte; ASCII text is its own', () => {
    const ascii = '<https://doi.org/10.1/x> "say \\"hi\\"" .\n';
    expect(binaryText(ascii)).toBe(ascii);
    for (const text of ['é', 'Straße', 'ÿ', '中文 𝔘 🧪', '\u00a0\u2028\ufeff', `a${'ü'.repeat(1000)}z`]) {
      const binary = binaryText(text);
      expect(binary).not.toMatch(/[^\u0000-\u00FF]/);
      expect(Buffer.from(binary, 'latin1')).toEqual(Buffer.from(text, 'utf8'));
    }
  });
});

describe('binaryText of a concatenation', () => {
  it('is that of the text it spells (an IRI the mapper joined, a line of pieces), the empty text its own', () => {
    expect(binaryText('')).toBe('');
    const doi = ['10.1007/s00381-023-0000-t', '10.1007/ü-佐藤'];
    for (const d of doi) {
      const joined = `https://w3id.org/scholarly-rdf/doi/${d}#author-` + 'muller-j'.repeat(3);
      const flat = Buffer.from(joined, 'utf8').toString('latin1');
      expect(binaryText(joined)).toBe(flat);
      expect(binaryText(`<${joined}> `)).toBe(`<${flat}> `);
    }
  });
});
