import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { RecordTriples } from '../../src/mapping/RecordTriples.js';
import { dataFactory } from '../../src/rdf/dataFactory.js';

const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';

describe('RecordTriples.integer', () => {
  it('gives an xsd:integer of the number, one literal per small count for every record of a factory', () => {
    for (const f of [dataFactory, DataFactory]) {
      const a = new RecordTriples(f, 'http://schema.org/', undefined, []);
      const b = new RecordTriples(f, 'http://schema.org/', undefined, []);
      for (const n of [0, 1, 2, 17, 1023]) {
        const literal = a.integer(n);
        expect(literal.equals(f.literal(String(n), f.namedNode(XSD_INTEGER)))).toBe(true);
        expect(b.integer(n)).toBe(literal);
      }
    }
  });

  it('makes a literal each time of a number it does not keep (large, negative, not whole)', () => {
    const t = new RecordTriples(dataFactory, 'http://schema.org/', undefined, []);
    for (const n of [1024, 123456, -1, 2.5]) {
      expect(t.integer(n).value).toBe(String(n));
      expect(t.integer(n).datatype.value).toBe(XSD_INTEGER);
    }
    expect(t.integer(2.5)).not.toBe(t.integer(2.5));
  });

  it('keeps the literals of each factory apart', () => {
    const ours = new RecordTriples(dataFactory, 'http://schema.org/', undefined, []).integer(3);
    const n3s = new RecordTriples(DataFactory, 'http://schema.org/', undefined, []).integer(3);
    expect(ours).not.toBe(n3s);
    expect(ours.equals(n3s)).toBe(true);
  });
});
