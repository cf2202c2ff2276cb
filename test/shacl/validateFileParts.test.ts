import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { recordKeyOfIri } from '../../src/group/groupRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { ParallelRecordValidator } from '../../src/shacl/ParallelRecordValidator.js';
import { encodeResult } from '../../src/shacl/PackedOutcomes.js';
import { CopiesTold } from '../../src/shacl/scope/recordScope.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import type { ValidationOutcome } from '../../src/shacl/RecordValidator.js';
import { validateFileParts } from '../../src/shacl/validateFileParts.js';
import { validateNTriples } from '../../src/shacl/validateStream.js';

// The parallel validator's workers run the built worker (dist/shacl/validationWorker.js): `npm run build` first.
let parallel: ParallelRecordValidator;
const dir = mkdtempSync(join(tmpdir(), 'scholarly-rdf-parts-'));
beforeAll(async () => {
  parallel = await ParallelRecordValidator.create({ workers: 2, checkScope: true });
});
afterAll(async () => {
  await parallel.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The N-Triples of `count` generated records, a list of lines per record. */
function recordLines(count: number, seed: number, format: 'ntriples' | 'nquads' = 'ntriples'): string[][] {
  return [...generateRecords(count, seed)].map((r) => {
    const quads = mapRecord(normalizeRecord(r)).quads;
    // N-Quads as `--graph-per-record` writes them: each record's quads (its shared nodes too) in its graph.
    const graph = `https://w3id.org/scholarly-rdf/record/${recordKeyOfIri(quads[0]!.subject.value)}`;
    const w = serializerFor(format).createWriter(format === 'nquads' ? { graph } : {});
    return w
      .write(quads)
      .split('\n')
      .filter((l) => l !== '');
  });
}

interface Run {
  outcomes: string[];
  splits: number;
  error?: string;
}

/** Where each run in parts read the file in order from (a part could not be grouped apart), by part size. */
const inOrderFrom = new Map<string, (number | undefined)[]>();

/** What a run yields, comparable: each group's key and outcome (copies of shared nodes told once per run, in order). */
/** An outcome as plain data, its keys in one order whichever path made it (what the runs compare as JSON). */
function encodeOutcome(o: ValidationOutcome) {
  return {
    conforms: o.conforms,
    violations: o.violations,
    warnings: o.warnings,
    ...(o.infos ? { infos: o.infos } : {}),
    ...(o.others ? { others: o.others } : {}),
    ...(o.scope ? { scope: o.scope } : {}),
    results: o.results.map(encodeResult),
  };
}

async function collect(
  outcomes: AsyncIterable<{ key: string | undefined; outcome: ValidationOutcome }>,
  splits: () => number,
): Promise<Run> {
  const told = new CopiesTold();
  const out: string[] = [];
  try {
    for await (const { key, outcome } of outcomes) {
      const scope = told.unseen(outcome.scope);
      const { scope: _, ...rest } = outcome;
      out.push(JSON.stringify([key, encodeOutcome({ ...rest, ...(scope ? { scope } : {}) })]));
    }
  } catch (err) {
    return { outcomes: out, splits: splits(), error: err instanceof ParseError ? err.message : String(err) };
  }
  return { outcomes: out, splits: splits() };
}

let inProcess: RecordValidator | undefined;
async function oneJob(
  path: string,
  text: string,
  format: 'ntriples' | 'nquads',
  limits: { maxDocumentChars?: number } = {},
): Promise<Run> {
  // A validator per run, as validate makes one (copies of shared nodes are told once per validator).
  inProcess = await RecordValidator.create({ checkScope: true });
  let splits = 0;
  return collect(
    validateNTriples(Readable.from([Buffer.from(text)]), inProcess, {
      format,
      source: path,
      ...limits,
      onSplitRecord: () => splits++,
    }),
    () => splits,
  );
}

async function inParts(
  path: string,
  format: 'ntriples' | 'nquads',
  partBytes: number,
  limits: { maxDocumentChars?: number; inFlight?: number; ahead?: number } = {},
): Promise<Run> {
  let splits = 0;
  let from: number | undefined;
  const run = await collect(
    validateFileParts(path, parallel, {
      format,
      partBytes,
      maxSearch: 20_000,
      ...limits,
      onSplitRecord: () => splits++,
      onReadInOrder: (offset) => (from = offset),
    }),
    () => splits,
  );
  inOrderFrom.set(path, [...(inOrderFrom.get(path) ?? []), from]);
  return run;
}

async function expectSameAsOneJob(name: string, text: string, format: 'ntriples' | 'nquads' = 'ntriples') {
  const path = join(dir, `${name}.${format === 'ntriples' ? 'nt' : 'nq'}`);
  writeFileSync(path, text);
  const one = await oneJob(path, text, format);
  expect(one.outcomes.length).toBeGreaterThan(0);
  const size = Buffer.byteLength(text);
  inOrderFrom.delete(path);
  for (const partBytes of [1, 97, 1000, 4096, Math.ceil(size / 3), 1 << 20]) {
    const parts = await inParts(path, format, partBytes);
    expect({ partBytes, ...parts }).toEqual({ partBytes, ...one });
  }
  return { ...one, inOrderFrom: inOrderFrom.get(path)! };
}

describe('validateFileParts', () => {
  it('gives the outcomes of one job, in order, for a dump as export writes it, cut into parts of 1 byte to 1 MiB', async () => {
    const records = recordLines(40, 7);
    // Some records do not conform: their titles dropped.
    const lines = records.flatMap((r, i) => (i % 3 === 0 ? r.filter((l) => !l.includes('schema.org/name>')) : r));
    const one = await expectSameAsOneJob('plain', `${lines.join('\n')}\n`);
    expect(one.outcomes.some((o) => o.includes('"conforms":false'))).toBe(true);
    // Every part was grouped apart, whatever its size: nothing read in order.
    expect(one.inOrderFrom).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('gives the outcomes of one job, in order, with parts answered ahead of the first (each sent as one is answered)', async () => {
    const lines = recordLines(30, 5).flatMap((r, i) =>
      i % 4 === 0 ? r.filter((l) => !l.includes('schema.org/name>')) : r,
    );
    const text = `${lines.join('\n')}\n`;
    const path = join(dir, 'ahead.nt');
    writeFileSync(path, text);
    const one = await oneJob(path, text, 'ntriples');
    for (const flight of [
      { inFlight: 1, ahead: 1 },
      { inFlight: 2, ahead: 1 },
      { inFlight: 3, ahead: 200 },
    ]) {
      const parts = await inParts(path, 'ntriples', 97, flight);
      expect({ ...flight, ...parts }).toEqual({ ...flight, ...one });
    }
  });

  it('gives the outcomes of one job for N-Quads with a graph per record', async () => {
    const lines = recordLines(25, 3, 'nquads').flat();
    const one = await expectSameAsOneJob('graphs', `${lines.join('\n')}\n`, 'nquads');
    expect(lines[0]).toMatch(/ <https:\/\/w3id.org\/scholarly-rdf\/record\/10\.[^>]+> \.$/);
    expect(one.inOrderFrom.every((from) => from === undefined)).toBe(true);
  });

  it('joins what the whole file joins: lines of a record after the next ones began, blank nodes, split records', async () => {
    const records = recordLines(30, 11);
    // Record 4's last line after record 5's first lines (within the window: joined to record 4).
    records[5]!.splice(2, 0, records[4]!.pop()!);
    // A blank node named by record 8, its lines among record 9's.
    const work8 = records[8]![0]!.split(' ')[0]!;
    records[8]!.push(`${work8} <http://schema.org/about> _:topic8 .`);
    records[9]!.splice(
      3,
      0,
      '_:topic8 <http://schema.org/name> "Topic" .',
      '_:topic8 <http://schema.org/about> _:sub8 .',
    );
    records[10]!.splice(1, 0, '_:sub8 <http://schema.org/name> "Sub" .');
    // A line of record 12 far after it (split: validated in pieces, counted), and one of record 2 at the end.
    records[20]!.push(records[12]!.pop()!);
    records[29]!.push(records[2]!.pop()!);
    // A blank node whose lines come before the line that names it (Turtle's order).
    const work15 = records[15]![0]!.split(' ')[0]!;
    records[14]!.push('_:early15 <http://schema.org/name> "Early" .');
    records[15]!.push(`${work15} <http://schema.org/about> _:early15 .`);
    const text = `${records.map((r) => r.join('\n')).join('\n')}\n`;
    const one = await expectSameAsOneJob('joined', text);
    expect(one.splits).toBe(2);
    // Small parts cut records that the whole file joins: the file is read in order from there.
    expect(one.inOrderFrom.slice(0, 3).every((from) => from !== undefined && from > 0)).toBe(true);
  });

  it('keeps what is of no record (a description before and after the records, comments, blank lines, CRLF, a BOM) where one job does', async () => {
    const records = recordLines(12, 5);
    const description = [
      '<https://w3id.org/scholarly-rdf/dump/abc123> <http://purl.org/dc/terms/title> "A dump" .',
      '<https://w3id.org/scholarly-rdf/dump/abc123#export> <http://purl.org/dc/terms/created> "2026-01-01" .',
    ];
    records[3]!.splice(1, 0, '# a comment', '', 'VERSION "1.2"');
    const body = records.map((r, i) => r.join(i % 2 ? '\r\n' : '\n')).join('\n');
    await expectSameAsOneJob('other', `\uFEFF${description.join('\n')}\n${body}\n${description.join('\n')}`);
    await expectSameAsOneJob('otherEnd', `${body}\n${description.join('\n')}\n`);
  });

  it('tells of copies of a shared node that differ as one job does (the scope check of auto mode)', async () => {
    const records = recordLines(20, 9);
    // A journal named by every record, written differently by some.
    for (const [i, r] of records.entries()) {
      if (i % 7 === 3)
        r.push(`<https://w3id.org/scholarly-rdf/journal/999> <http://schema.org/name> "Other name ${i}" .`);
      r.push(
        `<https://w3id.org/scholarly-rdf/journal/999> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Periodical> .`,
      );
    }
    const one = await expectSameAsOneJob('shared', `${records.map((r) => r.join('\n')).join('\n')}\n`);
    expect(one.outcomes.some((o) => o.includes('journal/999'))).toBe(true);
  });

  it('stops at a syntax error where one job does, naming the input line, after the records before it', async () => {
    const records = recordLines(20, 13);
    records[11]!.splice(4, 0, '<https://doi.org/broken> <http://schema.org/name> "unterminated .');
    const one = await expectSameAsOneJob('broken', `${records.map((r) => r.join('\n')).join('\n')}\n`);
    const line = records.slice(0, 11).reduce((n, r) => n + r.length, 0) + 5;
    expect(one.error).toContain(`broken.nt:${line}`);
  });

  it('reads the rest in order when no record starts to cut at (lines of no record only)', async () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `<https://example.org/thing/${i}> <http://schema.org/name> "Thing ${i}" .`,
    );
    const one = await expectSameAsOneJob('norecords', `${lines.join('\n')}\n`);
    expect(one.inOrderFrom.slice(0, 3)).toEqual([0, 0, 0]);
  });

  it('refuses a line longer than the limit where one job does, read in order (no record to cut at)', async () => {
    const records = recordLines(8, 17).flat();
    const long = `<https://doi.org/10.1/long> <http://schema.org/abstract> "${'a'.repeat(150_000)}`;
    const limits = { maxDocumentChars: 100_000 };
    for (const [name, text] of [
      ['longEnded', `${records.join('\n')}\n${long}" .\n${records.slice(0, 5).join('\n')}\n`],
      ['longUnended', `${records.join('\n')}\n${long}`],
    ] as const) {
      const path = join(dir, `${name}.nt`);
      writeFileSync(path, text);
      const one = await oneJob(path, text, 'ntriples', limits);
      const line = records.length + 1;
      expect(one.error).toBe(
        `${path}:${line}: line ${line} is larger than 100000 characters, more than is read at once: not read (\`maxDocumentChars\` raises the limit)`,
      );
      // What comes before the error is what one job gives of the records before the long line (one job gives none).
      const before = await oneJob(join(dir, 'before.nt'), `${records.join('\n')}\n`, 'ntriples', limits);
      inOrderFrom.delete(path);
      for (const partBytes of [1, 97, 4096, 1 << 20]) {
        const parts = await inParts(path, 'ntriples', partBytes, limits);
        expect(parts.error).toBe(one.error);
        expect(parts.outcomes).toEqual(before.outcomes.slice(0, parts.outcomes.length));
      }
      // The parts of 1 and 97 bytes (and 4096) reach the long line, where no record starts within 20,000 bytes.
      expect(
        inOrderFrom
          .get(path)!
          .slice(0, 3)
          .every((from) => from !== undefined),
      ).toBe(true);
    }
  });
});
