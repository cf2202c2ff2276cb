import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { isMintedIri } from '../../src/rdf/dataFactory.js';
import { NTriplesWriter } from '../../src/rdf/NTriplesWriter.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { serializerFor } from '../../src/serialize/serializers.js';

const record = normalizeRecord({
  doi: '10.1000/x y',
  title: 'A title',
  creators: [{ creator: 'Müller, J.' }, { creator: 'Smith, A.', ORCID: '0000-0002-1825-0097' }],
  publicationName: 'A journal',
  publisher: 'Springer',
  url: [{ format: 'pdf', platform: '', value: 'http://example.org/a b.pdf' }],
});
const iriNodes = (base?: string) =>
  mapRecord(record, base === undefined ? {} : { base })
    .quads.flatMap((q) => [q.subject, q.object])
    .filter((t) => t.termType === 'NamedNode');

describe('IRIs the mapper mints', () => {
  it('are marked as minted with the default base, and the writer writes them as they are', () => {
    const minted = iriNodes().filter(isMintedIri);
    expect(minted.map((t) => t.value)).toEqual(
      expect.arrayContaining(['https://doi.org/10.1000/x%20y', 'https://orcid.org/0000-0002-1825-0097']),
    );
    const text = new NTriplesWriter(false, 'N-Triples', undefined).write(mapRecord(record).quads);
    expect(text).toContain('<https://doi.org/10.1000/x%20y> ');
  });

  it('are not marked with a base that IRIs cannot carry, so that the writer still refuses the record', () => {
    expect(iriNodes('http://example.org/a<b/').some(isMintedIri)).toBe(false);
    expect(iriNodes('http://example.org/ok/').filter(isMintedIri).length).toBeGreaterThan(3);
    const quads = mapRecord(record, { base: 'http://example.org/a<b/' }).quads;
    expect(() => new NTriplesWriter(false, 'N-Triples', undefined).write(quads)).toThrow(ToolkitError);
    expect(() => serializerFor('turtle').createWriter().write(quads)).toThrow(ToolkitError);
    expect(serializerFor('turtle').createWriter().write(mapRecord(record).quads)).toContain(
      '<https://doi.org/10.1000/x%20y>',
    );
  });

  it('are not marked when the quads are made by another factory (its terms are checked as any)', async () => {
    const { DataFactory } = await import('n3');
    const quads = mapRecord(record, { factory: DataFactory }).quads;
    expect(quads.flatMap((q) => [q.subject, q.object]).some(isMintedIri)).toBe(false);
  });
});
