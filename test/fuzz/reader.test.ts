/**
 * Properties of the reader (and the mapping after it) on input that is not
 * records: arbitrary JSON values, arbitrary text, arbitrary bytes, and valid
 * inputs cut, spliced and corrupted at random. Whatever comes in, nothing
 * throws, every item is a record or a problem with a reason, and every item
 * is either mapped and writable or rejected with the record and field named.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mapItem as convertItem } from '../../src/pipeline/mapItem.js';
import type { ReadItem } from '../../src/record/readRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { inputArb, layoutInput, nastyChar, nastyString } from './arbitraries.js';
import { fuzzParams, reportCases } from './fuzzConfig.js';
import { readAll } from './pipeline.js';

const startedAt = Date.now();
afterAll(() => reportCases('reader.test.ts', startedAt));

/** The checks every input must pass, whatever it is. */
async function checkAnyInput(bytes: Buffer | string, chunkSize: number): Promise<void> {
  const items: ReadItem[] = await readAll(bytes, 'any.json', chunkSize);
  let last = 0;
  const writer = serializerFor('ntriples').createWriter();
  for (const item of items) {
    expect(item.source).toBe('any.json');
    if (item.index !== undefined) {
      expect(item.index).toBe(last + 1);
      last = item.index;
    }
    if (item.kind === 'problem') expect(item.reason).toMatch(/\S/);
    const outcome = convertItem(item);
    if (outcome.kind === 'rejected') {
      expect(outcome.rejection.field).toMatch(/\S/);
      expect(outcome.rejection.reason).toMatch(/\S/);
      expect(outcome.rejection.reason).not.toMatch(/^internal error/);
    } else {
      writer.write(outcome.mapped.quads);
    }
  }
}

/** A valid input, then damaged: cut short, a byte dropped, replaced or inserted, or a nasty character spliced in. */
const damagedInput = fc
  .tuple(
    inputArb,
    fc.array(
      fc.tuple(
        fc.constantFrom('cut', 'drop', 'flip', 'insert', 'splice'),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        nastyChar,
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([input, damages]) => {
    let bytes = Buffer.from(layoutInput(input), 'utf8');
    for (const [kind, at, byte, ch] of damages) {
      const i = bytes.length === 0 ? 0 : at % bytes.length;
      if (kind === 'cut') bytes = bytes.subarray(0, i);
      else if (kind === 'drop') bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
      else if (kind === 'flip')
        bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(i + 1)]);
      else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(i)]);
      else bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from(ch, 'utf8'), bytes.subarray(i)]);
    }
    return bytes;
  });

const chunkSizeArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 16 }), weight: 1 },
  { arbitrary: fc.integer({ min: 17, max: 8192 }), weight: 4 },
);

describe('readRecords on anything (property-based)', () => {
  it('never throws on arbitrary JSON values, compact or pretty-printed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.boolean(), chunkSizeArb, async (value, pretty, chunkSize) => {
        await checkAnyInput(JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null', chunkSize);
      }),
      fuzzParams('arbitrary JSON values', 600),
    );
  });

  it('never throws on arbitrary text and arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          nastyString(400),
          fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
        ),
        chunkSizeArb,
        async (input, chunkSize) => {
          await checkAnyInput(input, chunkSize);
        },
      ),
      fuzzParams('arbitrary text and bytes', 500),
    );
  });

  it('never throws on valid inputs that were cut short or corrupted', async () => {
    await fc.assert(
      fc.asyncProperty(damagedInput, chunkSizeArb, async (bytes, chunkSize) => {
        await checkAnyInput(bytes, chunkSize);
      }),
      fuzzParams('damaged inputs', 400),
    );
  });
});
