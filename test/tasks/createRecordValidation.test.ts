import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { createRecordValidation } from '../../src/tasks/createRecordValidation.js';

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
});
