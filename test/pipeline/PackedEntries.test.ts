import { describe, expect, it } from 'vitest';
import { convertPart } from '../../src/pipeline/convertRecords.js';
import type { PartEntry } from '../../src/pipeline/convertRecords.js';
import { EntryPacker, unpackEntries } from '../../src/pipeline/PackedEntries.js';
import { DEFAULT_PREFIXES } from '../../src/rdf/prefixes.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';

/** Entries packed, cloned as `postMessage` clones them (the numbers transferred), and unpacked. */
function roundTrip(entries: readonly PartEntry[]): PartEntry[] {
  const packer = new EntryPacker();
  for (const entry of entries) packer.add(entry);
  const packed = packer.pack();
  const cloned = structuredClone(packed, { transfer: [packed.numbers.buffer] });
  return [...unpackEntries(cloned)];
}

const written = (over: Partial<Extract<PartEntry, { kind: 'written' }>> = {}): PartEntry => ({
  kind: 'written',
  doi: '10.1007/x',
  digest: [0xffffffff, 7],
  bytes: 120,
  quadCount: 9,
  sharedKeys: [2 ** 53 - 1, 0, 123456789012345],
  notes: ['a note'],
  unknownFields: ['oddField'],
  identities: {
    orcids: [['https://orcid.org/0000-0002-1825-0097', 'Carberry, Josiah']],
    serial: { keys: ['k1', 'k2'], name: 'J' },
  },
  index: 3,
  line: 4,
  ...over,
});

describe("PackedEntries: a part's entries in one transferred buffer and one array of strings", () => {
  it('gives back every entry as it was, in order: written records of every shape, problems, rejections and failures', () => {
    const entries: PartEntry[] = [
      written(),
      { kind: 'problem', problem: { kind: 'problem', source: 'in.jsonl', index: 4, line: 5, reason: 'not JSON' } },
      written({ line: undefined, notes: [], unknownFields: [], sharedKeys: [], identities: { orcids: [] } }),
      {
        kind: 'rejected',
        rejection: {
          source: 'in.jsonl',
          index: 6,
          recordId: 'in.jsonl#6',
          field: 'doi',
          code: 'record-invalid',
          reason: 'no DOI',
        },
        hadRecord: true,
        index: 6,
      },
      written({
        identities: { orcids: [], serial: { keys: [], name: '' } },
        notes: ['', 'two\u0000notes'],
        doi: '10.1/ü',
      }),
      { kind: 'unwritable', doi: '10.1/y', digest: [1, 2], reason: 'no graph', index: 8 },
      { kind: 'failed', message: 'boom', code: 'internal', index: 9 },
    ];
    const back = roundTrip(entries);
    expect(back).toEqual(entries);
    expect('line' in back[2]!).toBe(false);
    expect('serial' in (back[2] as Extract<PartEntry, { kind: 'written' }>).identities).toBe(false);
  });

  it('an empty part, and a part larger than the packer first holds', () => {
    expect(roundTrip([])).toEqual([]);
    const many = Array.from({ length: 3000 }, (_, i) =>
      written({ index: i + 1, line: i + 1, sharedKeys: Array.from({ length: 7 }, (_, k) => i * 7 + k) }),
    );
    expect(roundTrip(many)).toEqual(many);
  });

  it("the entries of a worker's part of generated records: the same as the worker made them", () => {
    const text = [...generateRecords(200, 9)].map((r) => JSON.stringify(r)).join('\n') + '\n';
    const part = { source: 'gen.jsonl', line: 1, first: true, last: true, bytes: Buffer.from(text) };
    const writer = serializerFor('ntriples').createWriter({ prefixes: DEFAULT_PREFIXES });
    writer.continueAfter(1);
    const result = convertPart(part, writer, {});
    const entries = [...unpackEntries(result.entries)];
    expect(entries).toHaveLength(200);
    expect(entries.every((e) => e.kind === 'written')).toBe(true);
    expect(roundTrip(entries)).toEqual(entries);
    // Some records name ORCID persons and journals: those are packed too.
    const outlines = entries as Extract<PartEntry, { kind: 'written' }>[];
    expect(outlines.some((e) => e.identities.orcids.length > 0 && e.identities.serial)).toBe(true);
    expect(outlines.reduce((n, e) => n + e.bytes, 0)).toBe(result.bytes.length);
  });

  it('a packed part that does not hold what its numbers say is an internal error, not a silent loss', () => {
    const packer = new EntryPacker();
    packer.add(written());
    const packed = packer.pack();
    expect(() => [...unpackEntries({ ...packed, strings: [...packed.strings, 'extra'] })]).toThrow(
      /more than its entries/,
    );
    expect(() => [...unpackEntries({ numbers: Float64Array.of(1), strings: [], others: [] })]).toThrow(/fewer entries/);
  });
});
