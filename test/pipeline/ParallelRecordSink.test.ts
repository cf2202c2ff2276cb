import { sharedTripleKeys } from '../../src/mapping/sharedTriples.js';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { ToolkitError } from '../../src/errors.js';
import { convertRecords } from '../../src/pipeline/convertRecords.js';
import {
  ParallelRecordSink,
  type ParallelRecordSinkOptions,
  leadingSeparators,
  outlineOf,
} from '../../src/pipeline/ParallelRecordSink.js';
import { RecordSink } from '../../src/pipeline/RecordSink.js';
import { type Rejection, rejectionLine } from '../../src/pipeline/Rejection.js';
import { DEFAULT_PREFIXES } from '../../src/rdf/prefixes.js';
import { type ReadItem, readRecords } from '../../src/record/readRecords.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { mapItem } from '../../src/pipeline/mapItem.js';
import type { FormatName } from '../../src/formats.js';
import type { RecordWriter, SerializerOptions } from '../../src/serialize/QuadSerializer.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { bundleForChild } from '../helpers/bundleForChild.js';
import { bundleRecordWorker } from '../helpers/bundleRecordWorker.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FORMATS: FormatName[] = ['turtle', 'ntriples', 'nquads', 'jsonld', 'rdfxml'];
let dir: string;
/** The worker, bundled from the sources (as dist/pipeline/recordWorker.js is built from them). */
let workerUrl: URL;

beforeAll(async () => {
  ({ dir, workerUrl } = await bundleRecordWorker('parallel-sink-'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a fake worker script (for failures and timing the sink cannot get from the real one). */
function fakeWorker(name: string, body: string): URL {
  const path = join(dir, `${name}.mjs`);
  writeFileSync(path, `import { parentPort, workerData } from 'node:worker_threads';\n${body}`);
  return pathToFileURL(path);
}

interface Run {
  text: string;
  rejects: string[];
  written: string[];
  counts: number[];
}

type RunOptions = Omit<ParallelRecordSinkOptions, 'format' | 'onRejected' | 'onWritten' | 'workerUrl'> & {
  continueAfter?: number;
};

/** The output of RecordSink (the reference) on `items`, taken in batches of `batch`. */
async function sequential(
  items: readonly ReadItem[],
  format: FormatName,
  options: RunOptions = {},
  batch = 50,
): Promise<Run> {
  const run: Run = { text: '', rejects: [], written: [], counts: [] };
  const { serializer, continueAfter, ...rest } = options;
  const sink = new RecordSink(serializerFor(format).createWriter(serializer ?? {}), {
    ...rest,
    format,
    onRejected: (r) => void run.rejects.push(rejectionLine(r)),
    onWritten: ({ item, mapped }) =>
      void run.written.push(
        JSON.stringify([item.index, mapped.doi, mapped.quads.length, mapped.notes, mapped.unknownFields]),
      ),
  });
  if (continueAfter !== undefined) sink.continueAfter(continueAfter);
  else run.text = sink.start();
  for (let i = 0; i < items.length; i += batch) run.text += await sink.take(items.slice(i, i + batch));
  run.text += sink.end();
  run.counts = [sink.read, sink.written, sink.rejected];
  return run;
}

/** The output of ParallelRecordSink on `items`. */
async function parallel(items: readonly ReadItem[], format: FormatName, options: RunOptions = {}): Promise<Run> {
  const run: Run = { text: '', rejects: [], written: [], counts: [] };
  const { continueAfter, ...rest } = options;
  const sink = new ParallelRecordSink({
    ...rest,
    format,
    workerUrl,
    onRejected: (r) => void run.rejects.push(rejectionLine(r)),
    onWritten: ({ item, mapped }) =>
      void run.written.push(
        JSON.stringify([item.index, mapped.doi, mapped.quadCount, mapped.notes, mapped.unknownFields]),
      ),
  });
  try {
    if (continueAfter !== undefined) sink.continueAfter(continueAfter);
    else run.text = sink.start();
    for (let i = 0; i < items.length; i += sink.batchSize)
      run.text += await sink.take(items.slice(i, i + sink.batchSize));
    run.text += await sink.end();
  } finally {
    await sink.close();
  }
  run.counts = [sink.read, sink.written, sink.rejected];
  return run;
}

async function sampleItems(): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of readRecords(createReadStream(join(ROOT, 'data/sample-catalogue.jsonl')), {
    source: 'sample-catalogue.jsonl',
  }))
    items.push(item);
  return items;
}

const record = (raw: unknown, index: number): ReadItem => ({
  kind: 'record',
  raw,
  source: 'gen.jsonl',
  index,
  line: index,
});

/** Generated records with repeated DOIs (other case, other spacing), records without a DOI, non-records and unreadable lines. */
function messyItems(count: number): ReadItem[] {
  const items: ReadItem[] = [];
  const raws = [...generateRecords(count, 7)];
  raws.forEach((raw, i) => {
    const index = items.length + 1;
    if (i % 17 === 5)
      items.push({
        kind: 'problem',
        source: 'gen.jsonl',
        index,
        line: index,
        reason: 'not valid JSON',
        excerpt: '{"doi":',
      });
    else if (i % 13 === 4) items.push(record({ ...raw, doi: undefined, identifier: undefined }, index));
    else if (i % 11 === 3) items.push(record(42, index));
    // A copy of the record before: the same DOI with the same content (a duplicate, no conflict).
    else if (i % 19 === 8) items.push(record(raws[i - 1], index));
    else if (i % 7 === 2 && i > 0)
      items.push(record({ ...raw, doi: ` ${String(raws[i - 1]!.doi).toUpperCase()} `, identifier: undefined }, index));
    else items.push(record(raw, index));
  });
  return items;
}

describe('ParallelRecordSink: the output of RecordSink, byte for byte, from worker threads', () => {
  it.each(FORMATS)('the bundled sample as %s', async (format) => {
    const items = await sampleItems();
    const serializer: SerializerOptions = { prefixes: DEFAULT_PREFIXES };
    const expected = await sequential(items, format, { serializer });
    // Small batches, two workers, a tight bound: batches finish out of order and wait for each other.
    const actual = await parallel(items, format, { serializer, jobs: 2, batchSize: 7, maxBatchesInFlight: 3 });
    expect(actual.text.length).toBeGreaterThan(10_000);
    expect(actual.text).toBe(expected.text);
    expect(actual.written).toEqual(expected.written);
    expect(actual.rejects).toEqual(expected.rejects);
    expect(actual.counts).toEqual(expected.counts);
  });

  it.each(FORMATS)('generated records with duplicates and bad records as %s', async (format) => {
    const items = messyItems(240);
    const expected = await sequential(
      items,
      format,
      { schemaScheme: 'https', serializer: { prefixes: { ...DEFAULT_PREFIXES, schema: 'https://schema.org/' } } },
      64,
    );
    const actual = await parallel(items, format, {
      schemaScheme: 'https',
      serializer: { prefixes: { ...DEFAULT_PREFIXES, schema: 'https://schema.org/' } },
      jobs: 2,
      batchSize: 10,
    });
    const codes = new Set(expected.rejects.map((line) => (JSON.parse(line) as Rejection).code));
    expect([...codes].sort()).toEqual(['duplicate-doi', 'record-invalid', 'unreadable']);
    // Duplicates of both kinds: another record's content under its DOI (a conflict naming both) and a copy.
    const duplicates = expected.rejects
      .map((line) => JSON.parse(line) as Rejection)
      .filter((r) => r.code === 'duplicate-doi');
    expect(duplicates.filter((r) => r.conflict).length).toBeGreaterThan(0);
    expect(duplicates.filter((r) => !r.conflict).length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });

  it('records in their own graphs (N-Quads, JSON-LD), one graph for all (N-Quads), a JSON-LD context by URL', async () => {
    const items = messyItems(60);
    for (const [format, options] of [
      ['nquads', { graphPerRecord: true }],
      ['jsonld', { graphPerRecord: true, base: 'https://example.org/kg/' }],
      ['nquads', { serializer: { graph: 'https://example.org/g' } }],
      [
        'jsonld',
        {
          serializer: {
            jsonldContext: 'https://w3id.org/scholarly-rdf/context.jsonld',
            prefixes: { ex: 'https://example.org/' },
          },
        },
      ],
    ] as [FormatName, RunOptions][]) {
      expect(
        await parallel(items, format, { ...options, batchSize: 4 }),
        `${format} ${JSON.stringify(options)}`,
      ).toEqual(await sequential(items, format, options));
    }
  });

  it('JSON-LD: the first record written after rejected ones, a resumed output, no record at all, duplicates kept when asked', async () => {
    const items = messyItems(40);
    const bad = [
      record({ title: 'no DOI' }, 1),
      { kind: 'problem', source: 'x', index: 2, reason: 'not JSON' } as ReadItem,
    ];
    const cases: [ReadItem[], RunOptions][] = [
      [[...bad, ...items], { batchSize: 1 }],
      [items, { continueAfter: 3, batchSize: 5 }],
      [items, { continueAfter: 0, batchSize: 5 }],
      [bad, {}],
      [[], {}],
      [items, { rejectDuplicateDois: false, batchSize: 3 }],
    ];
    for (const [list, options] of cases) {
      const { batchSize: _b, ...reference } = options;
      const actual = await parallel(list, 'jsonld', options);
      expect(actual, JSON.stringify(options)).toEqual(await sequential(list, 'jsonld', reference));
      // Valid JSON, with what a resumed output holds before it.
      const before =
        options.continueAfter === undefined ? '' : options.continueAfter > 0 ? '{"@graph":[{}' : '{"@graph":[';
      expect(() => JSON.parse(before + actual.text)).not.toThrow();
    }
  });

  it('a record the format cannot carry is rejected (serialization) and its DOI stays taken, as in RecordSink', async () => {
    // A base with a space: every record that mints a node of its own is unwritable; a bare one is not.
    const base = 'https://example.org/a b/';
    const items: ReadItem[] = [
      ...[...generateRecords(6, 3)].map((raw, i) => record(raw, i + 1)),
      record({ doi: '10.1000/plain', title: 'Plain' }, 7),
      record({ doi: String([...generateRecords(1, 3)][0]!.doi), title: 'the DOI of an unwritable record' }, 8),
      record({ doi: '10.1000/PLAIN', title: 'again' }, 9),
    ];
    for (const format of ['rdfxml', 'jsonld'] as FormatName[]) {
      const expected = await sequential(items, format, { base });
      expect(expected.rejects.map((line) => (JSON.parse(line) as Rejection).code)).toEqual([
        ...Array(6).fill('serialization'),
        'duplicate-doi',
        'duplicate-doi',
      ]);
      expect(await parallel(items, format, { base, batchSize: 2 })).toEqual(expected);
    }
  });

  it('an RDF group written in this thread between records lands in order (JSON-LD separators too)', async () => {
    const items = messyItems(30);
    const group = [
      DataFactory.quad(
        DataFactory.namedNode('https://example.org/s'),
        DataFactory.namedNode('http://schema.org/name'),
        DataFactory.literal('s'),
      ),
    ];
    const writer = serializerFor('jsonld').createWriter();
    const reference = new RecordSink(writer);
    let expected = reference.start() + writer.write(group);
    expected += (await reference.take(items)) + writer.write(group) + reference.end();
    const sink = new ParallelRecordSink({ format: 'jsonld', workerUrl, batchSize: 4 });
    let text = sink.start() + (await sink.writeQuads(group));
    for (let i = 0; i < items.length; i += 4) text += await sink.take(items.slice(i, i + 4));
    text += (await sink.writeQuads(group)) + (await sink.end());
    expect(text).toBe(expected);
  });

  it.each(FORMATS)(
    'records sent as their JSON text (readRecords keepText) as %s: the same output as the values',
    async (format) => {
      // Non-ASCII text (the workers' byte counts), a record broken over two lines, an envelope of two, a duplicate.
      const raws = [...generateRecords(30, 11)].map((raw, i) =>
        i % 4 === 1 ? { ...raw, title: `Ünïcödé ☕ 𝔘 — ${String(raw.title)}` } : raw,
      );
      const lines = raws.map((raw) => JSON.stringify(raw));
      lines.splice(5, 0, '{"doi":"10.1000/broken","title":"broken', 'over a line"}');
      lines.splice(9, 0, JSON.stringify({ records: [raws[2], { doi: '10.1000/enveloped', title: 'É' }] }));
      const read = async (keepText: boolean): Promise<ReadItem[]> => {
        const items: ReadItem[] = [];
        for await (const item of readRecords(Readable.from([lines.join('\n')]), { source: 'kept.jsonl', keepText }))
          items.push(item);
        return items;
      };
      const kept = await read(true);
      expect(kept.filter((i) => i.kind === 'record' && i.text !== undefined).length).toBeGreaterThan(25);
      const actual = await parallel(kept, format, { jobs: 2, batchSize: 4 });
      expect(actual).toEqual(await sequential(await read(false), format));
      expect(actual.rejects.length).toBe(1);
    },
  );

  it('finds the separator a writer puts before a record that is not the first (JSON-LD only)', () => {
    const found = Object.fromEntries(FORMATS.map((f) => [f, leadingSeparators(() => serializerFor(f).createWriter())]));
    expect(found).toEqual({
      turtle: { first: '', later: '' },
      ntriples: { first: '', later: '' },
      nquads: { first: '', later: '' },
      jsonld: { first: '', later: ',' },
      rdfxml: { first: '', later: '' },
    });
  });
});

describe('convertRecords (the body of a worker)', () => {
  const writerThatThrows = (error: Error): RecordWriter => ({
    start: () => '',
    continueAfter: () => undefined,
    end: () => '',
    write: () => {
      throw error;
    },
  });
  const jobs = [
    { raw: { doi: '10.1000/a', title: 'A' }, source: 'in.jsonl', index: 1 },
    { raw: { title: 'no DOI' }, source: 'in.jsonl', index: 2, line: 2 },
  ];

  it('a serialization error makes the record unwritable; any other error fails it (code kept, else internal)', () => {
    expect(
      convertRecords(jobs.slice(0, 1), writerThatThrows(new ToolkitError('cannot carry', 'serialization')), {}),
    ).toEqual({
      results: [{ kind: 'unwritable', doi: '10.1000/a', digest: expect.any(Array), reason: 'cannot carry' }],
      bytes: new Uint8Array(0),
    });
    expect(convertRecords(jobs.slice(0, 1), writerThatThrows(new Error('disk on fire')), {}).results).toEqual([
      { kind: 'failed', message: 'disk on fire', code: 'internal' },
    ]);
    expect(convertRecords(jobs.slice(0, 1), writerThatThrows(new ToolkitError('odd', 'usage')), {}).results).toEqual([
      { kind: 'failed', message: 'odd', code: 'usage' },
    ]);
  });

  it('a rejected record comes back without the record (this thread has it), and says it had one', () => {
    const [result] = convertRecords(jobs.slice(1), serializerFor('ntriples').createWriter(), {}).results;
    const reference = mapItem({ kind: 'record', ...jobs[1]! });
    expect(reference.kind).toBe('rejected');
    const { record: _record, ...rest } = (reference as Extract<typeof reference, { kind: 'rejected' }>).rejection;
    expect(result).toEqual({ kind: 'rejected', rejection: rest, hadRecord: true });
  });

  it("a record's JSON text gives what its value gives; the bytes are the UTF-8 of the records' text, one after the other", () => {
    const raw = { doi: '10.1000/ü', title: 'Ünïcödé ☕ 𝔘' };
    const writer = serializerFor('ntriples').createWriter();
    writer.continueAfter(1);
    const byText = convertRecords([{ text: JSON.stringify(raw), source: 'in.jsonl', index: 1 }, jobs[0]!], writer, {});
    const byValue = convertRecords([{ raw, source: 'in.jsonl', index: 1 }, jobs[0]!], writer, {});
    expect(byText).toEqual(byValue);
    const text = Buffer.from(byText.bytes).toString('utf8');
    const lengths = byText.results.map((r) => (r.kind === 'written' ? r.bytes : 0));
    expect(lengths[0]).toBeGreaterThan(Buffer.from(raw.title).length);
    expect(text).toContain('Ünïcödé ☕ 𝔘');
    expect(lengths[0]! + lengths[1]!).toBe(byText.bytes.length);
    expect(Buffer.from(byText.bytes).subarray(lengths[0]).toString('utf8')).toMatch(/^<[^\n]*10\.1000\/a/);
  });

  it('the written outline of a mapped record (what onWritten gets from both sinks)', () => {
    const mapped = mapItem({ kind: 'record', ...jobs[0]! });
    if (mapped.kind !== 'mapped') throw new Error('expected a mapped record');
    expect(outlineOf(mapped.mapped)).toEqual({
      doi: '10.1000/a',
      quadCount: mapped.mapped.quads.length,
      sharedKeys: sharedTripleKeys(mapped.mapped.quads),
      notes: mapped.mapped.notes,
      unknownFields: mapped.mapped.unknownFields,
      identities: mapped.mapped.identities,
    });
  });
});

describe('ParallelRecordSink: bounded, and its workers end', () => {
  it('keeps at most maxBatchesInFlight batches out (take waits for the oldest) and returns text in input order', async () => {
    // One slow worker that reports how many batches it held at once.
    const url = fakeWorker(
      'slow',
      `let held = 0, most = 0;
       parentPort.on('message', ({ id, jobs }) => {
         most = Math.max(most, ++held);
         setTimeout(() => {
           held--;
           const texts = jobs.map((j) => j.index + ':' + most + '\\n');
           const results = jobs.map((j, i) => ({ kind: 'written', doi: '10.1/' + j.index, digest: [0, j.index], bytes: texts[i].length, quadCount: 1, notes: [], unknownFields: [] }));
           parentPort.postMessage({ id, results, bytes: new TextEncoder().encode(texts.join('')) });
         }, 20);
       });`,
    );
    const sink = new ParallelRecordSink({
      format: 'ntriples',
      jobs: 1,
      batchSize: 2,
      maxBatchesInFlight: 2,
      workerUrl: url,
    });
    let text = '';
    for (let i = 1; i <= 20; i += 2) text += await sink.take([record({}, i), record({}, i + 1)]);
    text += await sink.end();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => l.split(':').map(Number));
    expect(lines.map(([index]) => index)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(Math.max(...lines.map(([, most]) => most!))).toBe(2);
  });

  it('a worker that fails, stops or answers an internal error fails the run with a ToolkitError', async () => {
    const cases: [string, string, RegExp][] = [
      ['throws', "throw new Error('boom at start');", /record worker 1 failed: boom at start/],
      ['exits', "parentPort.on('message', () => process.exit(3));", /record worker 1 stopped \(exit code 3\)/],
      [
        'internal',
        "parentPort.on('message', ({ id, jobs }) => parentPort.postMessage({ id, results: jobs.map(() => ({ kind: 'failed', message: 'disk on fire', code: 'internal' })), bytes: new Uint8Array(0) }));",
        /record gen\.jsonl#1: a record worker failed: disk on fire/,
      ],
      [
        'no bytes',
        "parentPort.on('message', ({ id, jobs }) => parentPort.postMessage({ id, results: jobs.map(() => ({ kind: 'written', doi: '10.1/a', bytes: 3, quadCount: 1, notes: [], unknownFields: [] })) }));",
        /record worker 1 sent an answer without its results and bytes/,
      ],
    ];
    for (const [name, body, message] of cases) {
      const sink = new ParallelRecordSink({ format: 'turtle', jobs: 1, workerUrl: fakeWorker(name, body) });
      const error = await sink
        .take([record({ doi: '10.1000/a' }, 1)])
        .then(() => sink.end())
        .catch((e: unknown) => e);
      await sink.close();
      expect(error, name).toBeInstanceOf(ToolkitError);
      expect({ code: (error as ToolkitError).code, message: (error as Error).message }, name).toMatchObject({
        code: 'internal',
        message: expect.stringMatching(message),
      });
    }
  });

  it('keeps the code of a ToolkitError a worker answers', async () => {
    const url = fakeWorker(
      'coded',
      "parentPort.on('message', ({ id, jobs }) => parentPort.postMessage({ id, results: jobs.map(() => ({ kind: 'failed', message: 'no such base', code: 'usage' })), bytes: new Uint8Array(0) }));",
    );
    const sink = new ParallelRecordSink({ format: 'turtle', jobs: 1, workerUrl: url });
    await expect(sink.take([record({ doi: '10.1000/a' }, 1)]).then(() => sink.end())).rejects.toMatchObject({
      code: 'usage',
      message: 'no such base',
    });
    await sink.close();
  });

  it('aborting ends the workers: take and end reject with code aborted', async () => {
    const controller = new AbortController();
    const url = fakeWorker('never', "parentPort.on('message', () => {});");
    const sink = new ParallelRecordSink({
      format: 'turtle',
      jobs: 2,
      maxBatchesInFlight: 1,
      signal: controller.signal,
      workerUrl: url,
    });
    await sink.take([record({ doi: '10.1000/a' }, 1)]);
    const waiting = sink.take([record({ doi: '10.1000/b' }, 2)]);
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
    await expect(sink.end()).rejects.toMatchObject({ code: 'aborted' });
    expect(() => new ParallelRecordSink({ format: 'turtle', signal: controller.signal, workerUrl })).toThrow(
      expect.objectContaining({ code: 'aborted' }),
    );
  });

  it('no worker keeps the process alive: after end(), after a failed run closed, and when neither end() nor close() is called', async () => {
    const sinkModule = pathToFileURL(
      await bundleForChild(join(ROOT, 'src/pipeline/ParallelRecordSink.ts'), mkdtempSync(join(dir, 'sink-'))),
    ).href;
    const script = (body: string): string => `
      const { ParallelRecordSink } = await import(${JSON.stringify(sinkModule)});
      const items = [1, 2, 3, 4, 5].map((i) => ({ kind: 'record', raw: { doi: '10.1000/' + (i % 3), title: 'T' + i }, source: 'x', index: i }));
      const workerUrl = new URL(${JSON.stringify(workerUrl.href)});
      ${body}
      console.log('done');`;
    const runs = [
      "const sink = new ParallelRecordSink({ format: 'ntriples', jobs: 2, batchSize: 2, workerUrl }); let t = sink.start(); t += await sink.take(items); t += await sink.end(); console.log(t.split('\\n').length);",
      "const sink = new ParallelRecordSink({ format: 'ntriples', jobs: 2, workerUrl, onRejected: () => { throw new Error('strict'); } }); try { await sink.take(items); await sink.end(); } catch (e) { console.log(e.message); } finally { await sink.close(); }",
      "const sink = new ParallelRecordSink({ format: 'ntriples', jobs: 2, batchSize: 1, workerUrl }); await sink.take(items);",
    ];
    const { execFileSync } = await import('node:child_process');
    for (const body of runs) {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script(body)], {
        encoding: 'utf8',
        // a hang, not a speed: a child that starts worker threads took 20 s and more beside a loaded run
        timeout: 120_000,
      });
      expect(out, body).toMatch(/done\n$/);
    }
  }, 400_000);
});
