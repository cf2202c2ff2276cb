/**
 * Issue 32 item 5: a line over --max-document-chars is refused while it is read, in bounded memory. Each command
 * runs as a user runs it (the built CLI, one process) on a dump of two records with a 32 MB line in it, at the limit
 * 4 MiB and at the default (8 MiB); its peak resident set (process.resourceUsage().maxRSS, written at exit by
 * test/helpers/reportMaxRss.mjs) must stay within twice the limit of the same command's peak on the same dump
 * without the line. A memory bound, not a timing: the machine's load changes when, not how much.
 */
import type * as RDF from '@rdfjs/types';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { expectIsomorphic } from '../helpers/rdf.js';
import { BIN, ensureBuilt, runBin } from './helpers.js';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const REPORT_MAX_RSS = resolve(ROOT, 'test/helpers/reportMaxRss.mjs');
const FIXTURE = resolve(ROOT, 'test/fixtures/service/meta-v1-2015-articles-last-page-s701-2records.json');
const LIMIT = 4 * 2 ** 20;
const LONG_MB = 32;
/** The default of --max-document-chars. */
const DEFAULT_LIMIT = 8 * 2 ** 20;
/** The spread of one command's peak between runs of it (the garbage collector's timing), bytes. */
const SPREAD = 2 * 2 ** 20;
/** Where `load` is sent: nothing listens there (the line is refused before anything is sent). */
const NO_STORE = 'http://127.0.0.1:9/ds';

let dir: string;
let lines: string[];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'hostile-memory-'));
  const r = await runBin(dir, ['convert', FIXTURE, '-o', 'ok.nt', '-f', 'ntriples', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  lines = readFileSync(join(dir, 'ok.nt'), 'utf8').split('\n').filter(Boolean);
  // (The converter writes the records one after the other: the first half of the lines is the first record.)
  const first = lines.slice(0, lines.length / 2);
  const rest = lines.slice(first.length);
  const long = (end: string) => write(['<https://doi.org/10.1007/zz> <http://schema.org/name> "'], LONG_MB, end);
  // The long line after the first record, ended; and at the end of the file, never ended.
  write([`${first.join('\n')}\n`], 0, '', 'middle.nt');
  long(`" .\n${rest.join('\n')}\n`)('middle.nt');
  write([`${lines.join('\n')}\n`], 0, '', 'end.nt');
  long('')('end.nt');
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Appends (or, with a name, writes) `head`, then `mb` MiB of `x` (or of `block`, 1 MiB), then `end`. */
function write(
  head: string[],
  mb: number,
  end: string,
  name?: string,
  block = Buffer.alloc(2 ** 20, 'x'),
): (file: string) => void {
  const put = (file: string, flag: string) => {
    const fd = openSync(join(dir, file), flag);
    try {
      for (const h of head) writeSync(fd, h);
      for (let i = 0; i < mb; i++) writeSync(fd, block);
      writeSync(fd, end);
    } finally {
      closeSync(fd);
    }
  };
  if (name) put(name, 'w');
  return (file) => put(file, 'a');
}

/** Runs the built CLI: exit code, stderr and its peak resident set in KiB. */
async function measured(args: string[]): Promise<{ code: number; stderr: string; peakKiB: number }> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  let code = 0;
  let stderr: string;
  try {
    ({ stderr } = await exec(process.execPath, ['--import', REPORT_MAX_RSS, BIN, ...args], {
      cwd: dir,
      env: { ...process.env, MAX_RSS_FILE: rssFile },
      maxBuffer: 16 << 20,
    }));
  } catch (err) {
    ({ code, stderr } = err as { code: number; stderr: string });
  }
  return { code, stderr, peakKiB: Number(readFileSync(rssFile, 'utf8')) };
}

const limit = ['--max-document-chars', String(LIMIT)];
/** The commands measured, with `extra` options. */
const commands = (extra: string[]): Record<string, (file: string) => string[]> => ({
  validate: (f) => ['validate', f, '--jobs', '1', ...extra],
  load: (f) => ['load', f, '--endpoint', NO_STORE, ...extra],
  convert: (f) => ['convert', f, '-f', 'ntriples', '-o', 'out.nt', '--jobs', '1', ...extra],
});
/** The limits measured: 4 MiB, and the default (no option). */
const LIMITS = [
  { at: '4 MiB', extra: limit, max: LIMIT },
  { at: 'the default, 8 MiB', extra: [] as string[], max: DEFAULT_LIMIT },
] as const;

describe('a line over --max-document-chars: refused as it is read, within twice the limit', () => {
  for (const { at: limitAt, extra, max } of LIMITS)
    for (const [command, args] of Object.entries(commands(extra))) {
      it(`${command} at ${limitAt}: a ${LONG_MB} MB line, ended or not, is refused naming its line and the limit; peak within 2 x the limit (and the spread of runs)`, async () => {
        const base = await measured(args('ok.nt'));
        for (const [file, at] of [
          ['middle.nt', lines.length / 2 + 1],
          ['end.nt', lines.length + 1],
        ] as const) {
          const r = await measured(args(file));
          expect(r.code, r.stderr).toBe(4);
          expect(r.stderr).toContain(
            `error [parse]: ${file}:${at}: line ${at} is larger than ${max / 2 ** 20} MiB, more than is read at once: not read (--max-document-chars raises the limit)`,
          );
          if (command === 'convert') expect(r.stderr).toContain('nothing was written to out.nt');
          // Twice the limit (one-byte characters) over the same command on the dump without the line, and the
          // spread of the peak between runs. Measured at 4 MiB: convert 4 to 7 MB over, validate 1 to 2, load about
          // 1.7; at the default, convert and validate 8 to 9, load 3 (15 to 18 for convert and validate when the
          // reads decoded were left to the collector; with the default at 256 MiB the line was read whole: 1.2 to
          // 1.8 GB for a 250 MB line).
          expect(
            r.peakKiB - base.peakKiB,
            `${command} ${file}: ${r.peakKiB} KiB, ${base.peakKiB} without the line`,
          ).toBeLessThanOrEqual((2 * max + SPREAD) / 1024);
        }
      }, 300_000);
    }
});

/**
 * A long string literal of Turtle over the limit (`"""…"""` over many short lines: the line limit does not bound
 * it, and n3 holds it whole): refused as it is read, the chunks within it held back until it ends, then given to
 * n3 joined (src/parse/limitLongStrings.ts). Before, a 64 MB literal was read whole and accepted, `validate` peaking
 * at 1.1 GB; refused but given to n3 chunk by chunk (which copies and scans again what it holds for each), 4.6 to
 * 5.2 times the limit over the run without it. Measured held back: `validate --jobs 1` 1 MB over at 4 MiB, 10 at
 * 8; `convert --jobs 1` 6 and 9.
 */
describe('a long string literal of Turtle over --max-document-chars: refused as it is read, within twice the limit', () => {
  const commands = (extra: readonly string[]): Record<string, (file: string) => string[]> => ({
    validate: (f) => ['validate', f, '--jobs', '1', ...extra],
    convert: (f) => ['convert', f, '-f', 'ntriples', '-o', 'out.nt', '--jobs', '1', ...extra],
  });
  let okLines = 0;
  beforeAll(async () => {
    const r = await runBin(dir, ['convert', FIXTURE, '-o', 'ok.ttl', '-f', 'turtle', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const ok = readFileSync(join(dir, 'ok.ttl'), 'utf8');
    okLines = ok.split('\n').length - 1;
    const lines = Buffer.from(`${'x'.repeat(63)}\n`.repeat(2 ** 14));
    write([`${ok}<https://doi.org/10.1007/zz> <http://schema.org/name> """`], LONG_MB, '""" .\n', 'literal.ttl', lines);
  }, 120_000);

  for (const { at: limitAt, extra, max } of LIMITS)
    for (const [command, args] of Object.entries(commands(extra))) {
      it(`${command} at ${limitAt}: a ${LONG_MB} MB literal over ${LONG_MB * 2 ** 14} lines is refused naming its line and the limit; peak within 2 x the limit (and the spread of runs)`, async () => {
        const base = await measured(args('ok.ttl'));
        expect(base.code, base.stderr).toBe(0);
        const r = await measured(args('literal.ttl'));
        const line = okLines + 1;
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(
          `error [parse]: literal.ttl:${line}: the long string literal of line ${line} is larger than ${max / 2 ** 20} MiB, more than is read at once: not read (--max-document-chars raises the limit)`,
        );
        expect(
          r.peakKiB - base.peakKiB,
          `${command}: ${r.peakKiB} KiB, ${base.peakKiB} without the literal`,
        ).toBeLessThanOrEqual((2 * max + SPREAD) / 1024);
      }, 300_000);
    }
});

/**
 * A line of newline-delimited JSON over the limit: `convert` rejects that record (it is a record's line) and reads
 * the lines after it. The line is cut from the bytes read (src/record/ByteLineSplitter.ts), never decoded, and the
 * file's reads are read into again once the splitter holds no part of them (src/parse/FileReads.ts): decoded chunk
 * by chunk, a 32 MB line took 21.7 MB over the run without it; dropped as bytes, its reads waited for the garbage
 * collector, 7 to 13 MB over for 32 MB and 20 to 22 for 64 or 128 MB.
 */
describe('a line of newline-delimited JSON over --max-document-chars: convert rejects its record, within twice the limit', () => {
  /** Longer than the lines above: dropped reads left to the collector pile up with the line's length. */
  const NDJSON_MB = 2 * LONG_MB;
  const convert = (file: string, extra: readonly string[]) => [
    'convert',
    file,
    ...['-f', 'ntriples', '-o', 'records.nt', '--jobs', '1', ...extra],
  ];
  beforeAll(() => {
    const records = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { records: Record<string, unknown>[] }).records;
    const [first, second] = records.map((r) => JSON.stringify(r));
    const [head, tail] = JSON.stringify({ ...records[0], doi: '10.1007/zz', abstract: '\u0000' }).split('\\u0000');
    write([`${first}\n${head}`], NDJSON_MB, `${tail}\n${second}\n`, 'middle.jsonl');
    write([`${first}\n${second}\n${head}`], NDJSON_MB, '', 'end.jsonl');
    writeFileSync(join(dir, 'ok.jsonl'), `${first}\n${second}\n`);
  });

  for (const { at, extra, max } of LIMITS) {
    it(`convert at ${at}: a ${NDJSON_MB} MB line, ended or not, is its record rejected naming its line and the limit, the others written; peak within 2 x the limit (and the spread of runs)`, async () => {
      const base = await measured(convert('ok.jsonl', extra));
      expect(base.code, base.stderr).toBe(0);
      const written = readFileSync(join(dir, 'records.nt'), 'utf8');
      for (const [file, line] of [
        ['middle.jsonl', 2],
        ['end.jsonl', 3],
      ] as const) {
        const r = await measured(convert(file, extra));
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(
          `rejected: ${file} record ${line} (line ${line}), field (input): the line holds more than ${max / 2 ** 20} MiB of JSON, more than is read as a whole (--max-document-chars raises the limit)`,
        );
        // Every record accounted for: 3 read, 2 written, 1 rejected.
        expect(r.stderr).toContain('records read 3, mapped 2, rejected 1');
        expect(readFileSync(join(dir, 'records.nt'), 'utf8')).toBe(written);
        // Measured at 4 MiB: 4 to 7 MB over the run on ok.jsonl for lines of 32 to 250 MB (20 to 22 for 64 MB and
        // more when the dropped reads were left to the collector). Retained: at most the limit and a read.
        expect(r.peakKiB - base.peakKiB, `${file}: ${r.peakKiB} KiB, ${base.peakKiB} on ok.jsonl`).toBeLessThanOrEqual(
          (2 * max + SPREAD) / 1024,
        );
      }
    }, 300_000);
  }
});

/**
 * A JSON-LD node over the limit: `convert` keeps graphs, so it cannot cut a `@graph` whatever follows it (keys
 * after it make its nodes a named graph); it reads a top-level `@graph` node by node too (src/parse/splitJsonLdGraph.ts,
 * `keepGraphs`), holding the document whole only up to the limit. Before, convert applied no limit to JSON-LD: a
 * 15 MB node of 2 M values took 935 MB and 293 s, and exited 0. The node is the issue's: 10 MB, 2 M values (read
 * at the default before it was 8 MiB: 950 MB to 1.3 GB, 105 to 155 s).
 */
describe('a JSON-LD node over --max-document-chars: refused as it is read, within twice the limit', () => {
  const VALUES = 2_000_000;
  beforeAll(async () => {
    const r = await runBin(dir, ['convert', FIXTURE, '-o', 'ok.jsonld', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const head =
      '{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a", "n": "a"},\n{"@id": "urn:b", "n": [';
    const fd = openSync(join(dir, 'node.jsonld'), 'w');
    try {
      writeSync(fd, head);
      const block = '"x", '.repeat(VALUES / 100);
      for (let i = 0; i < 100; i++) writeSync(fd, block);
      writeSync(fd, '"x"]}]}\n');
    } finally {
      closeSync(fd);
    }
  }, 120_000);

  for (const { at: limitAt, extra, max } of LIMITS)
    for (const [command, args] of Object.entries(commands(extra))) {
      it(`${command} at ${limitAt}: a node of ${VALUES} values (10 MB) is refused naming its line and the limit; peak within 2 x the limit (and the spread of runs)`, async () => {
        const base = await measured(args('ok.jsonld'));
        // (`load` of it fails later, at the store no one runs: after reading, which is what is measured.)
        if (command !== 'load') expect(base.code, base.stderr).toBe(0);
        // convert: the output of the run on ok.jsonld is under the final name, and stays as it was.
        const before = command === 'convert' ? readFileSync(join(dir, 'out.nt'), 'utf8') : undefined;
        const r = await measured(args('node.jsonld'));
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(
          `error [parse]: node.jsonld:2: a node of the JSON-LD "@graph" larger than ${max / 2 ** 20} MiB, more than is read at once: not read (--max-document-chars raises the limit)`,
        );
        if (command === 'convert') {
          expect(r.stderr).toContain('nothing was written to out.nt');
          expect(readFileSync(join(dir, 'out.nt'), 'utf8')).toBe(before);
          rmSync(join(dir, 'out.nt'));
          expect((await measured(args('node.jsonld'))).code).toBe(4);
          expect(existsSync(join(dir, 'out.nt'))).toBe(false);
        }
        expect(
          r.peakKiB - base.peakKiB,
          `${command}: ${r.peakKiB} KiB, ${base.peakKiB} on ok.jsonld`,
        ).toBeLessThanOrEqual((2 * max + SPREAD) / 1024);
      }, 300_000);
    }

  it('convert: a JSON-LD dump converts as before, its named graphs kept (the same graph as converting the records)', async () => {
    for (const [jsonld, nq, extra] of [
      ['ok.jsonld', 'ok.nq', []],
      ['graphs.jsonld', 'graphs.nq', ['--graph-per-record']],
    ] as const) {
      if (extra.length)
        expect((await runBin(dir, ['convert', FIXTURE, '-o', jsonld, '--quiet', ...extra])).code).toBe(0);
      expect((await runBin(dir, ['convert', FIXTURE, '-o', `direct-${nq}`, '--quiet', ...extra])).code).toBe(0);
      const r = await runBin(dir, ['convert', jsonld, '-o', nq, '--quiet', ...limit]);
      expect(r.code, r.stderr).toBe(0);
      const read = async (name: string) =>
        collect(parseRdf(readFileSync(join(dir, name), 'utf8'), { format: 'nquads' }));
      const quads = await read(nq);
      if (extra.length) expect(quads.every((q) => q.graph.termType === 'NamedNode')).toBe(true);
      expectIsomorphic(quads, await read(`direct-${nq}`));
    }
  }, 300_000);
});

async function collect(quads: AsyncIterable<RDF.Quad>): Promise<RDF.Quad[]> {
  const out: RDF.Quad[] = [];
  for await (const q of quads) out.push(q);
  return out;
}

/**
 * A long line within the limit (256 MiB here; the default is 8 MiB) is read, and costs a bounded multiple of itself. What the
 * reader of records holds is the line's bytes, its text and JSON.parse's value (about 3x); what load holds, the
 * line's reads and the line joined (a large body is streamed to fetch, which copies a body of bytes). The rest of
 * convert's peak is the writer's (the abstract is written twice, schema: and bibo:); validate and convert of
 * N-Triples are not measured here: their cost is the grouping's (src/group) and n3's parser.
 */
describe('a line of 64 MiB within the limit: read whole, in a bounded multiple of it', () => {
  const MIB = 64;
  const LINE = MIB * 2 ** 20;
  /** A limit the line is within (the default was this before it was 8 MiB). */
  const LARGE = ['--max-document-chars', String(2 ** 28)];
  let store: Server;
  let endpoint: string;
  beforeAll(async () => {
    const records = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { records: Record<string, unknown>[] }).records;
    const [first, second] = records.map((r) => JSON.stringify(r));
    const [head, tail] = JSON.stringify({ ...records[0], doi: '10.1007/zz', abstract: '\u0000' }).split('\\u0000');
    write([`${first}\n${head}`], MIB, `${tail}\n${second}\n`, 'legal.jsonl');
    writeFileSync(join(dir, 'ok.jsonl'), `${first}\n${second}\n`);
    const half = lines.length / 2;
    write(
      [`${lines.slice(0, half).join('\n')}\n<https://doi.org/10.1007/zz> <http://schema.org/name> "`],
      MIB,
      `" .\n${lines.slice(half).join('\n')}\n`,
      'legal.nt',
    );
    ({ store, endpoint } = await storeStandIn());
  }, 120_000);
  afterAll(() => store?.close());

  it('convert: a record whose line holds a 64 MiB abstract is written whole; peak within 9 x the line (10 x before)', async () => {
    const args = (file: string) => ['convert', file, '-f', 'ntriples', '-o', 'legal.out.nt', '--jobs', '1', ...LARGE];
    const base = await measured(args('ok.jsonl'));
    expect(base.code, base.stderr).toBe(0);
    const r = await measured(args('legal.jsonl'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('records read 3, mapped 3, rejected 0');
    // The abstract's two statements (schema:abstract, bibo:abstract), each with the 64 MiB text whole.
    expect(longLines(join(dir, 'legal.out.nt'), LINE)).toBe(2);
    // Measured 396 to 525 MB over, with the machine's load (672 before: the line decoded chunk by chunk, joined,
    // hashed joined).
    expect(r.peakKiB - base.peakKiB, `${r.peakKiB} KiB, ${base.peakKiB} on ok.jsonl`).toBeLessThanOrEqual(
      (9 * LINE) / 1024,
    );
  }, 300_000);

  it('load: the 64 MiB N-Triples line is sent whole and counted; peak within 2.7 x the line (2.75 to 3.1 x when fetch copied the body)', async () => {
    const args = (file: string) => ['load', file, '--endpoint', endpoint, '--replace', ...LARGE];
    const base = await measured(args('ok.nt'));
    expect(base.code, base.stderr).toBe(0);
    const r = await measured(args('legal.nt'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${lines.length + 1} triples`);
    expect(store.longest).toBeGreaterThan(LINE);
    // Over the small file: the line's reads, the line joined and what the socket has not taken of the body;
    // 176 to 197 MB when fetch copied the body. Measured 113 to 146 MB once, 159.9 to 161.1 MB (2.44 to 2.46 x) on
    // 2026-12-02 with the code of then and of the day before alike (six runs): 2.5 x failed one CI run by 0.3%.
    expect(r.peakKiB - base.peakKiB, `${r.peakKiB} KiB, ${base.peakKiB} on ok.nt`).toBeLessThanOrEqual(
      (2.7 * LINE) / 1024,
    );
  }, 300_000);
});

/** Lines of a file of at least `min` bytes, counted as read (the file is not held). */
function longLines(path: string, min: number): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  let count = 0;
  let length = 0;
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      let from = 0;
      for (let nl = buf.indexOf(10, from); nl >= 0 && nl < n; nl = buf.indexOf(10, from)) {
        if (length + nl - from >= min) count++;
        length = 0;
        from = nl + 1;
      }
      length += n - from;
    }
  } finally {
    closeSync(fd);
  }
  return count;
}

type Server = ReturnType<typeof createServer> & { longest: number };

/**
 * A Graph Store stand-in on loopback (Fuseki's endpoints): a graph is the distinct lines sent to it (`/data`: PUT
 * replaces, POST adds; `/update`: DROP SILENT GRAPH empties), `/query` answers a COUNT of a graph's triples and an
 * ASK (true when the graph holds any). It keeps a hash of each line sent, and the longest line's length.
 */
async function storeStandIn(): Promise<{ store: Server; endpoint: string }> {
  const graphs = new Map<string, Set<string>>();
  const graph = (iri: string) => graphs.get(iri) ?? graphs.set(iri, new Set()).get(iri)!;
  const answer = (res: ServerResponse, value: object) => {
    res.setHeader('content-type', 'application/sparql-results+json');
    res.end(JSON.stringify(value));
  };
  const store = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hashes: string[] = [];
    let text = '';
    let line = createHash('sha1');
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      if (!url.pathname.endsWith('/data')) {
        text += chunk.toString();
        return;
      }
      let from = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
        line.update(chunk.subarray(from, nl));
        store.longest = Math.max(store.longest, length + nl - from);
        hashes.push(line.digest('hex'));
        line = createHash('sha1');
        length = 0;
        from = nl + 1;
      }
      line.update(chunk.subarray(from));
      length += chunk.length - from;
    });
    req.on('end', () => {
      if (url.pathname.endsWith('/data')) {
        const iri = url.searchParams.get('graph') ?? '';
        if (req.method !== 'POST') graphs.delete(iri);
        for (const h of hashes) graph(iri).add(h);
        res.statusCode = req.method === 'PUT' ? 201 : 204;
        res.end();
        return;
      }
      if (url.pathname.endsWith('/update')) {
        const dropped = /DROP SILENT GRAPH <([^>]*)>/.exec(new URLSearchParams(text).get('update') ?? '');
        if (dropped) graphs.delete(dropped[1]!);
        res.statusCode = 204;
        res.end();
        return;
      }
      const query = url.searchParams.get('query') ?? '';
      const held = graph(/FROM <([^>]*)>/.exec(query)?.[1] ?? '').size;
      if (query.startsWith('ASK')) answer(res, { head: {}, boolean: held > 0 });
      else
        answer(res, {
          head: { vars: ['n'] },
          results: { bindings: [{ n: { type: 'literal', value: String(held) } }] },
        });
    });
  }) as Server;
  store.longest = 0;
  await new Promise<void>((done) => store.listen(0, '127.0.0.1', done));
  return { store, endpoint: `http://127.0.0.1:${(store.address() as AddressInfo).port}/ds` };
}
