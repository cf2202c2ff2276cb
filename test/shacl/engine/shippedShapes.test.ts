// The engine of our own against today's validation (shacl-engine with the native SPARQL constraints, no fast walk)
// with the shipped shapes: the same results in the same order, field by field, on the fixtures, every broken case
// of shapeCases.ts, the sample catalogue and the service fixtures, mapped.
import type * as RDF from '@rdfjs/types';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapRecord } from '../../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../../src/record/normalizeRecord.js';
import { sampleCataloguePath } from '../../../src/sample/sampleCatalogue.js';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import { RecordValidator } from '../../../src/shacl/RecordValidator.js';
import { validateStream } from '../../../src/shacl/validateStream.js';
import { SHAPE_CASES, caseQuads, fixtureQuads } from '../shapeCases.js';
import { resultLine } from './differential.js';

let engine: CoreEngine;
let today: RecordValidator;

beforeAll(async () => {
  today = await RecordValidator.create({ fast: false });
  engine = CoreEngine.compile(today.shapes.dataset.getQuads(null, null, null, null));
});

async function compare(quads: RDF.Quad[], label: string): Promise<number> {
  const expected = (await today.validateRecord(quads)).results.map(resultLine);
  const got = engine.validateQuads(quads).map(resultLine);
  expect(got, label).toEqual(expected);
  return expected.length;
}

const SERVICE = fileURLToPath(new URL('../../fixtures/service/', import.meta.url));

function recordsOf(json: unknown): unknown[] {
  const j = json as { records?: unknown[]; doi?: unknown; identifier?: unknown };
  if (Array.isArray(j.records)) return j.records;
  return j.doi || j.identifier ? [j] : [];
}

describe('the engine of our own with the shipped shapes gives the results of today, in order', () => {
  it('on the fixtures, whole and record by record', async () => {
    for (const name of ['full-records.ttl', 'dataset-description.ttl', 'broken-records.ttl']) {
      await compare(fixtureQuads(name), name);
      for await (const { key, quads } of validateStream(fixtureQuads(name), today)) await compare(quads, `${name} ${key}`);
    }
  });

  it('on every broken case of each shape', async () => {
    let results = 0;
    for (const c of SHAPE_CASES) results += await compare(caseQuads(c), `${c.shape} ${c.add ?? ''} ${c.remove?.join() ?? ''}`);
    expect(results).toBeGreaterThan(SHAPE_CASES.length);
  });

  it('on the sample catalogue and the service fixtures, mapped', async () => {
    const raws = readFileSync(sampleCataloguePath(), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
    for (const file of readdirSync(SERVICE).filter((f) => f.endsWith('.json'))) raws.push(...recordsOf(JSON.parse(readFileSync(`${SERVICE}${file}`, 'utf8'))));
    expect(raws.length).toBeGreaterThan(300);
    for (const raw of raws) {
      const mapped = mapRecord(normalizeRecord(raw));
      await compare(mapped.quads, mapped.doi);
    }
  });
});
