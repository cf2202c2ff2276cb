import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import type { ValidationOutcome } from '../../src/shacl/RecordValidator.js';
import { validateNTriples, validateStream } from '../../src/shacl/validateStream.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { recordKeyOf } from '../../src/shacl/groupRecords.js';
import { fixtureQuads, summary } from './shapeCases.js';

let validator: RecordValidator;
beforeAll(async () => {
  validator = await RecordValidator.create();
});

/** N-Triples as the toolkit writes it: the quads of a record together. */
function nt(quads: RDF.Quad[]): string {
  const groups = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const k = recordKeyOf(q.subject) ?? '';
    groups.set(k, [...(groups.get(k) ?? []), q]);
  }
  const w = serializerFor('ntriples').createWriter();
  return w.start() + [...groups.values()].map((g) => w.write(g)).join('') + w.end();
}

const comparable = (key: string | undefined, o: ValidationOutcome) => ({
  key,
  conforms: o.conforms,
  results: o.results.map((r) => `${r.focusNode.value} ${summary(r)}`).sort(),
});

describe('validateNTriples', () => {
  it('gives every record the outcome validateStream gives it, in the same order', async () => {
    const quads = [
      ...fixtureQuads('broken-records.ttl'),
      ...[...generateRecords(20, 3)].flatMap((r) => mapRecord(normalizeRecord(r)).quads),
      ...fixtureQuads('full-records.ttl'),
    ];
    const text = nt(quads);
    const expected = [];
    for await (const v of validateStream(new Parser({ format: 'application/n-triples' }).parse(text), validator)) expected.push(comparable(v.key, v.outcome));
    const got = [];
    for await (const v of validateNTriples([Buffer.from(text)], validator, { batch: 4, concurrency: 3 })) got.push(comparable(v.key, v.outcome));
    expect(got).toEqual(expected);
    expect(got.filter((g) => !g.conforms).length).toBe(5);
    expect(got.length).toBe(28);
  });

  it('throws a ParseError with the input line after the records before it', async () => {
    const good = nt([...generateRecords(3, 5)].flatMap((r) => mapRecord(normalizeRecord(r)).quads));
    const lines = good.split('\n').length - 1;
    const text = `${good}<https://doi.org/10.1/x> <http://schema.org/name> "unterminated .\n${good}`;
    const seen: (string | undefined)[] = [];
    let error: unknown;
    try {
      for await (const v of validateNTriples(text, validator, { source: 'dump.nt', batch: 1 })) seen.push(v.key);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toMatch(new RegExp(`^dump\\.nt:${lines + 1}: invalid N-Triples`));
    expect(seen).toHaveLength(3);
  });
});

describe('validateNTriples with a validator of your own', () => {
  it('parses the records itself when the validator has no validateTexts', async () => {
    const text = nt(fixtureQuads('broken-records.ttl'));
    const own = { validateRecord: (q: Iterable<RDF.Quad>) => validator.validateRecord(q), validateRecords: (r: readonly Iterable<RDF.Quad>[]) => validator.validateRecords(r) };
    const outcomes = [];
    for await (const v of validateNTriples(text, own)) outcomes.push(v.outcome.conforms);
    expect(outcomes.filter((c) => !c)).toHaveLength(5);
    expect(outcomes).toHaveLength(6);
  });
});
