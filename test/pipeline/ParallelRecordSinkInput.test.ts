import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParallelRecordSink, type ParallelRecordSinkOptions } from '../../src/pipeline/ParallelRecordSink.js';
import { RecordSink } from '../../src/pipeline/RecordSink.js';
import { type Rejection, rejectionLine } from '../../src/pipeline/Rejection.js';
import { DEFAULT_PREFIXES } from '../../src/rdf/prefixes.js';
import { type ReadItem, readRecords } from '../../src/record/readRecords.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import type { FormatName } from '../../src/serialize/QuadSerializer.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { bundleRecordWorker } from '../helpers/bundleRecordWorker.js';

let dir: string;
let workerUrl: URL;

beforeAll(async () => {
  ({ dir, workerUrl } = await bundleRecordWorker('parallel-input-'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  text: string;
  rejects: string[];
  written: string[];
  counts: number[];
}

type Limits = Pick<ParallelRecordSinkOptions, 'maxDocumentChars' | 'maxDepth'>;
const serializer = { prefixes: DEFAULT_PREFIXES };

/** The reference: each input read by readRecords in this thread, through RecordSink. */
async function sequential(inputs: readonly [string, Buffer][], format: FormatName, limits: Limits = {}): Promise<Run> {
  const run: Run = { text: '', rejects: [], written: [], counts: [] };
  const sink = new RecordSink(serializerFor(format).createWriter(serializer), {
    format,
    onRejected: (r) => void run.rejects.push(rejectionLine(r)),
    onWritten: ({ item, mapped }) =>
      void run.written.push(
        JSON.stringify([
          item.source,
          item.index,
          item.line,
          mapped.doi,
          mapped.quads.length,
          mapped.notes,
          mapped.unknownFields,
        ]),
      ),
  });
  run.text = sink.start();
  for (const [source, bytes] of inputs) {
    const items: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([bytes]), { source, ...limits })) items.push(item);
    run.text += await sink.take(items);
  }
  run.text += sink.end();
  run.counts = [sink.read, sink.written, sink.rejected];
  return run;
}

/** Bytes in chunks of the sizes given, in turn (a stream's chunks do not end at line breaks). */
async function* chunked(bytes: Buffer, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield Buffer.from(bytes.subarray(at, at + size));
    at += size;
  }
}

/** The same inputs read by the workers part by part (`takeInput`). */
async function parallel(
  inputs: readonly [string, Buffer][],
  format: FormatName,
  options: Partial<ParallelRecordSinkOptions> & { sizes?: number[]; release?: boolean } = {},
): Promise<Run & { given: number; readsBack: number }> {
  const run = {
    text: '',
    rejects: [] as string[],
    written: [] as string[],
    counts: [] as number[],
    given: 0,
    readsBack: 0,
  };
  const { sizes = [97, 1000, 13, 4096], release = false, ...rest } = options;
  const sink = new ParallelRecordSink({
    format,
    serializer,
    jobs: 2,
    workerUrl,
    ...rest,
    onRejected: (r) => void run.rejects.push(rejectionLine(r)),
    onWritten: ({ item, mapped }) =>
      void run.written.push(
        JSON.stringify([
          item.source,
          item.index,
          item.line,
          mapped.doi,
          mapped.quadCount,
          mapped.notes,
          mapped.unknownFields,
        ]),
      ),
  });
  const parts: Buffer[] = [];
  try {
    parts.push(Buffer.from(sink.start()));
    for (const [source, bytes] of inputs) {
      // A read given back is read into again at once (as a file's are): overwritten here, the output must not change.
      const readBack = (chunk: Uint8Array) => {
        chunk.fill(0x7b);
        run.readsBack++;
      };
      for await (const text of sink.takeInput(chunked(bytes, sizes), source, readBack)) {
        if (!release) {
          parts.push(text);
          continue;
        }
        // Written out (copied), then released and overwritten: its memory takes a later part's text once all its
        // slices are (the output must not change).
        parts.push(Buffer.from(text));
        sink.release(text);
        text.fill(0x7d);
        if (text.buffer instanceof SharedArrayBuffer) run.given++;
      }
    }
    parts.push(await sink.end());
  } finally {
    await sink.close();
  }
  run.text = Buffer.concat(parts).toString('utf8');
  run.counts = [sink.read, sink.written, sink.rejected];
  return run;
}

/**
 * Newline-delimited JSON as saved responses hold it: records, blank lines, CR
 * LF, envelopes of several records on a line, lines that are not JSON or not
 * records, records without a DOI, DOIs again (other case), records broken
 * over lines by raw line breaks in a string (some over many lines), a byte
 * that is not UTF-8.
 */
function messyLines(count: number, seed: number): Buffer {
  const raws = [...generateRecords(count, seed)];
  const lines: (string | Buffer)[] = [];
  raws.forEach((raw, i) => {
    const r = raw as Record<string, unknown>;
    const text = JSON.stringify(raw);
    if (i % 23 === 5) lines.push('{"doi": "10.1/broken", "title": ');
    else if (i % 19 === 4) lines.push(JSON.stringify({ ...r, doi: undefined, identifier: undefined }));
    else if (i % 17 === 3) lines.push('42');
    else if (i % 13 === 2 && i > 0) lines.push(JSON.stringify({ ...r, doi: String(raws[i - 1]!.doi).toUpperCase() }));
    else if (i % 11 === 7) lines.push(`${text}\r`);
    else if (i % 9 === 8)
      lines.push(JSON.stringify({ apiMessage: 'page', records: [raw, raws[(i + 1) % raws.length]] }));
    else if (i % 7 === 6)
      lines.push(JSON.stringify({ ...r, title: `${'a line\n'.repeat(1 + (i % 5))}broken` }).replace(/\\n/g, '\n'));
    else if (i % 29 === 10)
      lines.push(Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xff]), Buffer.from(text.slice(-2))]));
    else lines.push(text);
    if (i % 10 === 9) lines.push('');
  });
  return Buffer.concat(lines.flatMap((l) => [typeof l === 'string' ? Buffer.from(l) : l, Buffer.from('\n')]));
}

async function expectSame(
  inputs: [string, Buffer][],
  format: FormatName,
  options: Partial<ParallelRecordSinkOptions> & { sizes?: number[]; release?: boolean } = {},
): Promise<Run & { given: number; readsBack: number }> {
  const limits: Limits = {
    ...(options.maxDocumentChars !== undefined ? { maxDocumentChars: options.maxDocumentChars } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  };
  const expected = await sequential(inputs, format, limits);
  const actual = await parallel(inputs, format, options);
  expect(actual.text).toBe(expected.text);
  expect(actual.rejects).toEqual(expected.rejects);
  expect(actual.written).toEqual(expected.written);
  expect(actual.counts).toEqual(expected.counts);
  return { ...expected, given: actual.given, readsBack: actual.readsBack };
}

const codesOf = (run: Run): string[] => [...new Set(run.rejects.map((l) => (JSON.parse(l) as Rejection).code))].sort();

describe('ParallelRecordSink.takeInput: workers read the bytes of an input part by part, with the output, notes and rejects of one thread', () => {
  it.each(['ntriples', 'turtle', 'jsonld'] as FormatName[])(
    'newline-delimited JSON with every quirk, cut into many parts, as %s',
    async (format) => {
      const input = messyLines(160, 11);
      const run = await expectSame([['messy.jsonl', input]], format, { partBytes: 700, maxBatchesInFlight: 3 });
      expect(codesOf(run)).toEqual(['duplicate-doi', 'record-invalid', 'unreadable']);
      expect(run.written.length).toBeGreaterThan(100);
      // Records broken over lines were read whole (their title has the line breaks).
      expect(run.text).toMatch(/a line(\\n| )a line(\\n| )broken/);
    },
  );

  it('text in shared memory, released once written and overwritten: later parts written into it, the same bytes', async () => {
    const run = await expectSame([['messy.jsonl', messyLines(200, 21)]], 'jsonld', { partBytes: 3000, release: true });
    expect(run.given).toBeGreaterThan(5);
  });

  it('parts of one line each, and parts as large as the input; several inputs (each numbered from 1); a byte order mark; no line break at the end', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), messyLines(40, 3)]);
    const cut = messyLines(30, 5);
    const noBreak = cut.subarray(0, cut.length - 1);
    const inputs: [string, Buffer][] = [
      ['bom.jsonl', bom],
      ['cut.jsonl', noBreak],
      ['again.jsonl', messyLines(25, 9)],
    ];
    await expectSame(inputs, 'ntriples', { partBytes: 1 });
    await expectSame(inputs, 'jsonld', { partBytes: 1 << 20, sizes: [1 << 20] });
  });

  it('a record broken over lines that the input ends inside, and one broken over more lines than a part holds', async () => {
    const records = [...generateRecords(12, 4)].map((r) => JSON.stringify(r));
    const long = JSON.stringify({
      ...(generateRecords(1, 8).next().value as object),
      title: 'x\n'.repeat(300),
    }).replace(/\\n/g, '\n');
    const input = Buffer.from(
      [
        ...records.slice(0, 6),
        long,
        ...records.slice(6),
        '{"doi": "10.1/cut", "title": "the input ends',
        'inside it',
      ].join('\n'),
    );
    const run = await expectSame([['broken.jsonl', input]], 'ntriples', { partBytes: 50 });
    expect(run.rejects.map((l) => (JSON.parse(l) as Rejection).line)).toEqual([records.length + 301 + 1]);
  });

  it('each line of a part decoded alone, as one thread decodes a file: two byte order marks, lines of ASCII, of Latin-1, of characters past U+FFFF, an invalid byte, a line exactly at maxDocumentChars', async () => {
    const raws = [...generateRecords(40, 17)].map((r) => r as Record<string, unknown>);
    const titles = [
      'plain ascii',
      'caf\u00e9 na\u00efve \u00fcber',
      'emoji \u{1F600} and \u4e2d\u6587',
      'mixed \u00e9 \u{1D400}',
    ];
    const lines: Buffer[] = raws.map((r, i) => Buffer.from(JSON.stringify({ ...r, title: titles[i % titles.length] })));
    lines[7] = Buffer.concat([lines[7]!.subarray(0, 20), Buffer.from([0xc3]), lines[7]!.subarray(20)]);
    const limit = Buffer.from(lines[11]!).toString('utf8').length;
    const input = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]),
      ...lines.flatMap((l) => [l, Buffer.from('\n')]),
    ]);
    for (const partBytes of [1, 500, 1 << 20])
      await expectSame([['decoded.jsonl', input]], 'turtle', { partBytes, maxDocumentChars: limit });
  });

  it('a line longer than maxDocumentChars: the parts before, then the rest read in this thread, numbered on', async () => {
    const raws = [...generateRecords(30, 6)];
    const big = JSON.stringify({ records: raws.slice(0, 10) });
    const lines = [
      ...raws.slice(10, 20).map((r) => JSON.stringify(r)),
      big,
      ...raws.slice(20).map((r) => JSON.stringify(r)),
      '{"doi": "10.1/x", "title": "broken',
      'over lines"}',
    ];
    const input = Buffer.from(lines.join('\n'));
    // (Over the limit long before it ends: cut around, the line would be a worker's part, rejected there.)
    const maxDocumentChars = big.length >> 1;
    const run = await expectSame(
      [
        ['long.jsonl', input],
        ['after.jsonl', messyLines(20, 2)],
      ],
      'ntriples',
      { partBytes: 2000, maxDocumentChars },
    );
    expect(run.rejects.some((l) => (JSON.parse(l) as Rejection).reason.includes('more than is read as a whole'))).toBe(
      true,
    );
    // The rest, read in this thread, gives its reads back once no part of them is held.
    expect(run.readsBack).toBeGreaterThan(0);
    // The long line first in its input, too.
    await expectSame([['first.jsonl', Buffer.from([big, ...lines].join('\n'))]], 'turtle', {
      partBytes: 100,
      maxDocumentChars,
    });
  });

  it('one JSON document (a saved response, pretty-printed) larger than a part is read whole; too large, it is the problem it is in one thread', async () => {
    const envelope = {
      apiMessage: 'This JSON was provided by Springer Nature',
      query: 'x',
      records: [...generateRecords(30, 12)],
    };
    const pretty = Buffer.from(JSON.stringify(envelope, null, 2));
    await expectSame(
      [
        ['page.json', pretty],
        ['page2.json', Buffer.from(JSON.stringify(envelope))],
      ],
      'jsonld',
      { partBytes: 500 },
    );
    const run = await expectSame([['page.json', pretty]], 'ntriples', {
      partBytes: 500,
      maxDocumentChars: pretty.length >> 1,
    });
    expect(run.counts).toEqual([1, 0, 1]);
  });

  it('an empty input, blank lines only, a document that is not JSON', async () => {
    const run = await expectSame(
      [
        ['empty.jsonl', Buffer.alloc(0)],
        ['blank.jsonl', Buffer.from('\n  \n\r\n')],
        ['junk.json', Buffer.from('{"records": [\n  {"doi": "10.1/a",\n  oops\n')],
      ],
      'ntriples',
      { partBytes: 4 },
    );
    expect(run.counts).toEqual([3, 0, 3]);
  });
});
