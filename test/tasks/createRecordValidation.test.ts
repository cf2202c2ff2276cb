import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { createRecordValidation, startRecordValidation } from '../../src/tasks/createRecordValidation.js';
import { tempDir } from '../helpers/tempDir.js';

describe('createRecordValidation', () => {
  it('in a worker gives the violations it gives in this thread, record by record, for calls that overlap', async () => {
    const records = [...generateRecords(40, 7)].map((raw, i) => {
      const quads = mapRecord(normalizeRecord(raw)).quads;
      // Every fourth record without its title, every fifth with a DOI the shapes refuse.
      return quads
        .filter((q) => !(i % 4 === 1 && q.predicate.value === 'http://schema.org/name'))
        .map((q) =>
          i % 5 === 2 && q.predicate.value === 'http://purl.org/ontology/bibo/doi'
            ? DataFactory.quad(q.subject, q.predicate, DataFactory.literal('10.1/x'))
            : q,
        );
    });
    const here = await createRecordValidation();
    const worker = await createRecordValidation({ workers: 1 });
    try {
      expect(here.batchSize).toBe(1);
      expect(worker.batchSize).toBeGreaterThan(1);
      const expected = await here.violations(records);
      expect(expected.filter((v) => v.length > 0).length).toBeGreaterThanOrEqual(10);
      const halves = await Promise.all([worker.violations(records.slice(0, 17)), worker.violations(records.slice(17))]);
      expect(halves.flat()).toEqual(expected);
    } finally {
      await worker.close?.();
    }
  });

  it('starts at once: records asked for before the shapes are loaded wait for them; shapes it cannot use fail ready and every call', async () => {
    const dir = tempDir('record-validation-');
    writeFileSync(
      join(dir, 'bad.ttl'),
      '@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:s> a sh:NodeShape ; sh:targetClass <urn:C> ; sh:minCount "x" .\n',
    );
    for (const workers of [0, 1]) {
      const bad = startRecordValidation({ shapesDir: dir, workers });
      await expect(bad.violations([])).rejects.toThrow(/minCount/);
      await expect(bad.ready).rejects.toThrow(/minCount/);
      await bad.close?.();
      const good = startRecordValidation({ workers });
      const record = mapRecord(normalizeRecord([...generateRecords(1, 3)][0])).quads;
      const [answer] = await Promise.all([good.violations([record]), good.ready]);
      expect(answer).toEqual([[]]);
      await good.close?.();
    }
  });
});
