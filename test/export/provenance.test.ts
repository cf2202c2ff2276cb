import type * as RDF from '@rdfjs/types';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ExportIdentity } from '../../src/export/ExportState.js';
import { datasetIri } from '../../src/export/datasetIri.js';
import { provenanceQuads, type ProvenanceInput } from '../../src/export/provenance.js';
import { NS } from '../../src/rdf/namespaces.js';

const identity: ExportIdentity = {
  query: 'type:Book',
  endpoint: 'https://api.example.org/meta/v2/json',
  format: 'nquads',
  gzip: false,
  pageSize: 25,
  maxStart: 10_000,
  maxRecords: null,
  splitBy: null,
  graph: null,
  graphPerRecord: false,
  base: null,
  validate: false,
};
const BOOK = `${NS.schemaHttp}Book`;
const CHAPTER = `${NS.schemaHttp}Chapter`;

function input(extra: Partial<ProvenanceInput> = {}): ProvenanceInput {
  return {
    identity,
    counts: { pages: 2, records: 7, duplicates: 1, rejects: 0, triples: 321, retries: 0 },
    classes: { [BOOK]: 3, [CHAPTER]: 4 },
    otherClasses: [BOOK, `${NS.schemaHttp}Person`],
    apiMessage: 'This JSON was provided by Springer Nature',
    startedAt: '2026-01-02T03:04:05Z',
    endedAt: '2026-01-02T03:04:06Z',
    ...extra,
  };
}

const values = (quads: RDF.Quad[], s: string, p: string) =>
  quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);

describe('provenanceQuads', () => {
  it("counts works per class only where the class is the works' alone; the classes of all nodes", () => {
    const quads = provenanceQuads(input());
    const ds = datasetIri(identity);
    expect(values(quads, ds, `${NS.void}classes`)).toEqual(['3']);
    const partitions = Object.fromEntries(
      values(quads, ds, `${NS.void}classPartition`).map((p) => [
        values(quads, p, `${NS.void}class`)[0],
        values(quads, p, `${NS.void}entities`),
      ]),
    );
    // Books are works and the containers of chapters: their number is not known without remembering nodes.
    expect(partitions).toEqual({ [BOOK]: [], [CHAPTER]: ['4'] });
    expect(values(quads, ds, `${NS.void}triples`)).toEqual([]);
    expect(values(quads, ds, `${NS.void}entities`)).toEqual([]);
    expect(values(quads, `${ds}#export`, `${NS.sr}statementsWritten`)).toEqual(['321']);
  });

  it("writes the notice as the source's dcterms:description, no dcterms:rights, and dcterms:license only when given", () => {
    const without = provenanceQuads(input());
    expect(without.some((q) => q.predicate.value === `${NS.dcterms}rights`)).toBe(false);
    expect(without.some((q) => q.predicate.value === `${NS.dcterms}license`)).toBe(false);
    expect(values(without, identity.endpoint, `${NS.dcterms}description`)).toEqual([
      'This JSON was provided by Springer Nature',
    ]);
    expect(
      provenanceQuads(input({ apiMessage: null })).some((q) => q.predicate.value === `${NS.dcterms}description`),
    ).toBe(false);
    const licensed = provenanceQuads(input({ license: 'https://creativecommons.org/licenses/by/4.0/' }));
    const licence = licensed.filter((q) => q.predicate.value === `${NS.dcterms}license`);
    expect(licence.map((q) => [q.subject.value, q.object.termType, q.object.value])).toEqual([
      [datasetIri(identity), 'NamedNode', 'https://creativecommons.org/licenses/by/4.0/'],
    ]);
  });

  it('states the pattern of the record graphs with graphPerRecord, under the base', () => {
    expect(provenanceQuads(input()).some((q) => q.predicate.value === `${NS.sr}recordGraphPattern`)).toBe(false);
    const id = { ...identity, graphPerRecord: true, base: 'https://example.org/kg/' };
    const quads = provenanceQuads(input({ identity: id }));
    expect(values(quads, datasetIri(id), `${NS.sr}recordGraphPattern`)).toEqual([
      'https://example.org/kg/record/{doi}',
    ]);
  });
});

describe('datasetIri', () => {
  it('is what it was for an export without record graphs, and another one with them', () => {
    const old = createHash('sha256')
      .update(JSON.stringify([identity.endpoint, identity.query, identity.format, identity.maxRecords, identity.graph]))
      .digest('hex')
      .slice(0, 16);
    expect(datasetIri(identity)).toBe(`https://w3id.org/scholarly-rdf/dump/${old}`);
    expect(datasetIri({ ...identity, graphPerRecord: true })).not.toBe(datasetIri(identity));
  });
});
