import { beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { validateRecordLines } from '../../src/shacl/validateRecordLines.js';
import { validateNTriples } from '../../src/shacl/validateStream.js';
import { comparableOutcome, fixtureQuads, recordDump } from './shapeCases.js';

let validator: RecordValidator;
beforeAll(async () => {
  validator = await RecordValidator.create();
});

const nt = recordDump;
const comparable = comparableOutcome;

describe('validateRecordLines', () => {
  it('gives every record of a text of whole lines the outcome validateNTriples gives it, in order', async () => {
    const text = nt([
      ...fixtureQuads('broken-records.ttl'),
      ...[...generateRecords(20, 7)].flatMap((r) => mapRecord(normalizeRecord(r)).quads),
      ...fixtureQuads('full-records.ttl'),
    ]);
    const expected = [];
    for await (const v of validateNTriples(text, validator)) expected.push(comparable(v.key, v.outcome));
    const got = (await validateRecordLines(text, validator, { batch: 3 })).map((v) => comparable(v.key, v.outcome));
    expect(got).toEqual(expected);
    expect(got.filter((g) => !g.conforms).length).toBeGreaterThan(0);
  });

  it('names input lines counted from firstLine in a syntax error', async () => {
    const good = nt([...generateRecords(2, 5)].flatMap((r) => mapRecord(normalizeRecord(r)).quads));
    const lines = good.split('\n').length - 1;
    const text = `${good}<https://doi.org/10.1/x> <http://schema.org/name> "unterminated .\n`;
    const error = await validateRecordLines(text, validator, { source: 'dump.nt', firstLine: 1001 }).catch((e) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toMatch(new RegExp(`^dump\\.nt:${1000 + lines + 1}: invalid N-Triples`));
  });
});
