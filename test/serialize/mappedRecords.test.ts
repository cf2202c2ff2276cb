// The serialisers on the mapper's real output: the shared service fixtures and generated sample records,
// every format read back by an independent parser, and all formats isomorphic to each other.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as RDF from '@rdfjs/types';
import { unwrap } from '../../src/record/unwrap.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { expectIsomorphic } from '../helpers/rdf.js';
import { ALL_FORMATS, parseFormat, writeAll } from './quads.js';

const FIXTURES = new URL('../fixtures/service/', import.meta.url);

function mapAll(raws: Iterable<unknown>): RDF.Quad[][] {
  const groups: RDF.Quad[][] = [];
  for (const raw of raws) {
    try {
      groups.push(mapRecord(normalizeRecord(raw)).quads);
    } catch {
      // records the mapper rejects are the mapper's tests' business
    }
  }
  return groups;
}

function fixtureRecords(): unknown[] {
  const raws: unknown[] = [];
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))) {
    for (const item of unwrap(JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')))) {
      if (item.kind === 'record') raws.push(item.raw);
    }
  }
  return raws;
}

describe('serialising the mapper output', () => {
  const cases: [string, () => RDF.Quad[][]][] = [
    ['the service fixtures', () => mapAll(fixtureRecords())],
    ['120 generated sample records (quirks included)', () => mapAll(generateRecords(120, 7))],
  ];
  for (const [name, load] of cases) {
    it(`${name}: every format reads back to the mapper's quads, and the formats agree`, async () => {
      const groups = load();
      expect(groups.length).toBeGreaterThan(0);
      const quads = groups.flat();
      for (const format of ALL_FORMATS) {
        expectIsomorphic(await parseFormat(format, writeAll(format, groups)), quads, `${name}, ${format}`);
      }
    });
  }
});
