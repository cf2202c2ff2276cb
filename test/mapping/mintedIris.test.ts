import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { isAsciiIri, isMintedIri } from '../../src/rdf/dataFactory.js';
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

  it('are marked ASCII only when they are: own nodes of a record named by a hash or an ASCII name, under an ASCII DOI', () => {
    const named = normalizeRecord({
      doi: '10.1000/abc',
      title: 'A title',
      creators: [
        { creator: 'Müller, J.' },
        { creator: '王, 小明' },
        { creator: 'Smith, A.' },
        { creator: 'Jones, B.', ORCID: '0000-0002-1825-0097' },
      ],
      publisher: 'Springer',
      publicationName: 'A journal',
      url: [{ format: 'pdf', platform: '', value: 'http://example.org/a.pdf' }],
    });
    const nodes = mapRecord(named).quads.flatMap((q) => [q.subject, q.object]);
    const ascii = nodes.filter(isAsciiIri).map((t) => t.value);
    expect(ascii.every((iri) => /^[\u0000-\u007F]*$/.test(iri))).toBe(true);
    const base = 'https://w3id.org/scholarly-rdf/doi/10.1000/abc#';
    expect(ascii).toEqual(expect.arrayContaining([`${base}author-muller-j`, `${base}author-smith-a`]));
    expect(ascii.some((iri) => iri.startsWith(`${base}authorship-`))).toBe(true);
    expect(ascii.some((iri) => iri.startsWith(`${base}authors-`))).toBe(true);
    expect(ascii.some((iri) => iri.startsWith(`${base}encoding-`))).toBe(true);
    // shared entities: a verified ORCID iD's two IRIs, a publisher's ASCII slug
    expect(ascii).toEqual(
      expect.arrayContaining([
        'https://orcid.org/0000-0002-1825-0097',
        'http://orcid.org/0000-0002-1825-0097',
        'https://w3id.org/scholarly-rdf/publisher/springer',
      ]),
    );
    const chinese = normalizeRecord({ doi: '10.1000/abd', title: 'T', publisher: '科学出版社' });
    const publisher = mapRecord(chinese)
      .quads.flatMap((q) => [q.subject, q.object])
      .filter((t) => t.value.includes('/publisher/'));
    expect(publisher.length).toBeGreaterThan(0);
    expect(publisher.some(isAsciiIri)).toBe(false);
    // the name's slug keeps its letters: not ASCII, not marked
    expect(nodes.some((t) => t.value.includes('#author-') && /[^\u0000-\u007F]/.test(t.value))).toBe(true);
    expect(nodes.filter((t) => /[^\u0000-\u007F]/.test(t.value)).some(isAsciiIri)).toBe(false);
    // a DOI that is not ASCII: none of its own nodes is marked
    const other = normalizeRecord({ doi: '10.1000/ä', title: 'T', creators: [{ creator: 'Smith, A.' }] });
    expect(
      mapRecord(other)
        .quads.flatMap((q) => [q.subject, q.object])
        .some(isAsciiIri),
    ).toBe(false);
    // the N-Triples writer's binary text of either record is the UTF-8 of its text
    for (const r of [named, other]) {
      const quads = mapRecord(r).quads;
      const writer = new NTriplesWriter(false, 'N-Triples', undefined);
      expect(writer.writeBinary(quads)).toBe(Buffer.from(writer.write(quads), 'utf8').toString('latin1'));
    }
  });
});
