import type * as RDF from '@rdfjs/types';
import { isUtf8 } from 'node:buffer';
import { abortError } from '../abort.js';
import { isSharedEntityIri } from '../mapping/entityIris.js';
import { DEFAULT_MAX_DOCUMENT_CHARS, tooLarge } from '../parse/limits.js';
import type { Chunk, ChunkSource } from './ChunkReader.js';
import { countQuad, isOwnTriple, probeOf } from './ChunkReader.js';
import { DistinctTriples } from '../rdf/DistinctTriples.js';
import { findDatasetIri } from './defaultGraph.js';
import { LineKind, newLineScan, scanNTriplesLine, type LineScan } from './scanNTriplesLine.js';
import { parseOtherLine, rewriteLabels, writeTriples } from './otherLines.js';
import { NS, RDF_TYPE as RDF_TYPE_IRI } from '../rdf/namespaces.js';

/**
 * One input of a load: N-Triples or N-Quads bytes, sent as they are written line by line, or quads
 * (another format, parsed), written as N-Triples.
 */
export type LoadSource =
  | { kind: 'lines'; source: string; bytes: AsyncIterable<Uint8Array>; nquads: boolean }
  | { kind: 'quads'; source: string; quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad> };

/** Options of {@link NTriplesChunkReader}. */
export interface NTriplesChunkReaderOptions {
  /** Triples per chunk. */
  chunkTriples: number;
  /**
   * Give each input's blank nodes labels of their own (`_:f2-b1` for `_:b1` of the third input), so that
   * two inputs' `_:b1` in one chunk stay two nodes, as they are when parsed. Defaults to false (one input).
   */
  labelsPerInput?: boolean;
  /** The longest line read, in bytes (a longer one is a `parse` error). Defaults to 2^23. */
  maxLineBytes?: number;
  /** Cancels reading. Defaults to none. */
  signal?: AbortSignal;
}

const QUAD_GROUP = 1000;
/** Chunk buffers kept for reuse. */
const POOL = 3;
const RDF_TYPE = Buffer.from(RDF_TYPE_IRI);
const DATASET_CLASSES = [Buffer.from(`${NS.void}Dataset`), Buffer.from(`${NS.dcat}Dataset`)];
const NEWLINE = 0x0a;
const DOT_LINE = Buffer.from(' .\n');

/** The input being read. */
interface OpenInput {
  index: number;
  source: LoadSource;
  bytes?: AsyncIterator<Uint8Array>;
  quads?: AsyncIterator<RDF.Quad> | Iterator<RDF.Quad>;
  /** The lines source's unread text: `buf` from `pos`, then `queued` from `queuedAt`. */
  buf: Buffer;
  pos: number;
  /** The rest of a read whose first line (cut by the read before) is in `buf` alone. */
  queued: Buffer | undefined;
  queuedAt: number;
  /** Whether bytes were read (a byte-order mark is dropped from the first). */
  started: boolean;
  /** The number of the line at `pos`. */
  line: number;
  ended: boolean;
}

/**
 * Cuts N-Triples and N-Quads inputs into chunks of `chunkTriples` triples at line boundaries, with the
 * lines' bytes as they are: no parse, no writing back. Each line is checked by a fast scanner
 * ({@link scanNTriplesLine}); a line it does not pass (escapes `\u`, RDF 1.2 terms, controls, errors) is
 * parsed by n3 as the parser of other loads would: its error names the file and line, or its triples are
 * written by the project's writer. Quads of named graphs (N-Quads) become triples (the graph term cut off);
 * blank node labels are written as the project's writer writes them. Inputs of other formats come as quads
 * and are written as N-Triples. Counts what a load summary reports, like {@link ChunkReader}.
 */
export class NTriplesChunkReader implements ChunkSource {
  blankNodeTriples = 0;
  namedGraphQuads = 0;
  sharedTriples = 0;
  readonly distinctShared = new DistinctTriples();
  datasetIri: string | undefined;
  /** Triples read so far (progress). */
  triplesRead = 0;
  private readonly sources: AsyncIterator<LoadSource> | Iterator<LoadSource>;
  private input: OpenInput | undefined;
  private inputs = 0;
  private done = false;
  private pending: RDF.Quad[] = [];
  private pendingAt = 0;
  /** The blank node label prefix of the input the pending quads come from. */
  private pendingPrefix = '';
  private readonly scan: LineScan = newLineScan();
  private lastSubject: Buffer = Buffer.alloc(0);
  private lastSubjectShared = false;
  private readonly maxLineBytes: number;
  /** Chunk buffers whose requests have settled. */
  private readonly pool: Buffer[] = [];

  constructor(
    sources: AsyncIterable<LoadSource> | Iterable<LoadSource>,
    private readonly options: NTriplesChunkReaderOptions,
  ) {
    this.sources = (
      Symbol.asyncIterator in sources
        ? sources[Symbol.asyncIterator]()
        : (sources as Iterable<LoadSource>)[Symbol.iterator]()
    ) as AsyncIterator<LoadSource> | Iterator<LoadSource>;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_DOCUMENT_CHARS;
  }

  async next(write: boolean, lookForDataset = false): Promise<Chunk | undefined> {
    const out: Chunk & { parts: Buffer[] } = { body: Buffer.alloc(0), triples: 0, parts: [] };
    const max = this.options.chunkTriples;
    while (out.triples < max && !this.done) {
      if (this.options.signal?.aborted) throw abortError(this.options.signal);
      if (this.pendingAt < this.pending.length) {
        this.takePending(out, max, write, lookForDataset);
        continue;
      }
      const input = this.input ?? (await this.openNext());
      if (!input) break;
      if (input.ended) {
        this.input = undefined;
        continue;
      }
      if (input.quads) await this.readQuads(input);
      else await this.readLines(input, out, max, write, lookForDataset);
    }
    if (out.triples === 0) return undefined;
    const probe = out.probe !== undefined ? { probe: out.probe } : {};
    if (!write) return { body: out.body, triples: out.triples, ...probe };
    // Copied into a buffer of the pool: chunks' memory is reused, not left to the garbage collector.
    const size = out.parts.reduce((n, p) => n + p.length, 0);
    const index = this.pool.findIndex((b) => b.length >= size);
    const buffer = index >= 0 ? this.pool.splice(index, 1)[0]! : Buffer.allocUnsafe(Math.ceil(size * 1.25));
    let at = 0;
    for (const part of out.parts) at += part.copy(buffer, at);
    const release = () => {
      if (this.pool.length < POOL && !this.pool.includes(buffer)) this.pool.push(buffer);
    };
    return { body: buffer.subarray(0, size), triples: out.triples, release, ...probe };
  }

  private async openNext(): Promise<OpenInput | undefined> {
    const next = await this.sources.next();
    if (next.done) {
      this.done = true;
      return undefined;
    }
    const source = next.value;
    const input: OpenInput = {
      index: this.inputs++,
      source,
      buf: Buffer.alloc(0),
      pos: 0,
      queued: undefined,
      queuedAt: 0,
      started: false,
      line: 1,
      ended: false,
    };
    if (source.kind === 'lines') input.bytes = source.bytes[Symbol.asyncIterator]();
    else
      input.quads = (
        Symbol.asyncIterator in source.quads
          ? source.quads[Symbol.asyncIterator]()
          : (source.quads as Iterable<RDF.Quad>)[Symbol.iterator]()
      ) as OpenInput['quads'];
    this.input = input;
    return input;
  }

  /** Reads a group of quads of an input of another format into `pending`. */
  private async readQuads(input: OpenInput): Promise<void> {
    this.pending = [];
    this.pendingAt = 0;
    this.pendingPrefix = this.prefixOf(input);
    while (this.pending.length < QUAD_GROUP) {
      const next = await input.quads!.next();
      if (next.done) {
        input.ended = true;
        return;
      }
      this.pending.push(next.value);
    }
  }

  /** Counts and writes quads of `pending` (a parsed line, a group of another format's quads), up to `max` triples in the chunk. */
  private takePending(out: Chunk & { parts: Buffer[] }, max: number, write: boolean, lookForDataset: boolean): void {
    const end = Math.min(this.pending.length, this.pendingAt + (max - out.triples));
    const triples: RDF.Quad[] = [];
    for (let i = this.pendingAt; i < end; i++) {
      const q = countQuad(this, this.pending[i]!);
      if (out.probe === undefined && isOwnTriple(q)) out.probe = probeOf(q);
      if (lookForDataset && this.datasetIri === undefined) this.datasetIri = findDatasetIri([q]);
      triples.push(q);
    }
    if (write) out.parts.push(Buffer.from(writeTriples(triples, this.pendingPrefix), 'utf8'));
    out.triples += triples.length;
    this.triplesRead += triples.length;
    this.pendingAt = end;
  }

  /** The label prefix of an input's blank nodes. */
  private prefixOf(input: OpenInput): string {
    return this.options.labelsPerInput ? `f${input.index}-` : '';
  }

  /**
   * Reads lines of an N-Triples or N-Quads input into the chunk until it is full, a line goes to the parser
   * (its triples then wait in `pending`), or the input's text runs out (more is read, or it ends).
   */
  private async readLines(
    input: OpenInput,
    out: Chunk & { parts: Buffer[] },
    max: number,
    write: boolean,
    lookForDataset: boolean,
  ): Promise<void> {
    const { buf } = input;
    const nquads = input.source.kind === 'lines' && input.source.nquads;
    const scan = this.scan;
    const prefix = this.prefixOf(input);
    let runStart = input.pos;
    let pos = input.pos;
    const flush = (to: number) => {
      if (write && to > runStart) out.parts.push(buf.subarray(runStart, to));
    };
    try {
      while (out.triples < max) {
        const nl = buf.indexOf(NEWLINE, pos);
        if (nl < 0) break;
        if (nl - pos > this.maxLineBytes)
          throw tooLarge(`line ${input.line} is`, this.maxLineBytes, input.source.source, input.line);
        const kind = scanNTriplesLine(buf, pos, nl, nquads, scan);
        const lineNo = input.line++;
        if (kind === LineKind.Empty) {
          pos = nl + 1;
          continue;
        }
        if (kind === LineKind.Plain && !(scan.nonAscii && !isUtf8(buf.subarray(pos, nl)))) {
          if (this.countPlain(buf, lookForDataset) && out.probe === undefined)
            out.probe = buf.toString('utf8', pos, scan.graphAt >= 0 ? scan.graphAt : nl).replace(/\s*\.\s*$/, '');
          out.triples++;
          this.triplesRead++;
          const relabel = (scan.subjectBlank || scan.objectBlank) && (scan.oddLabel || prefix !== '');
          if (scan.graphAt >= 0 || relabel) {
            // Written again: the graph term cut off, blank node labels as the writer writes them.
            flush(pos);
            if (write)
              out.parts.push(
                relabel
                  ? rewriteLabels(buf, pos, nl, scan, prefix)
                  : Buffer.concat([buf.subarray(pos, scan.graphAt), DOT_LINE]),
              );
            runStart = nl + 1;
          }
          pos = nl + 1;
          continue;
        }
        // Not plain: parsed as the parser of other loads would; the run before it goes first, its triples next.
        flush(pos);
        const text = buf.toString('utf8', pos, nl);
        pos = nl + 1;
        runStart = pos;
        this.pending = await parseOtherLine(text, input.source.source, lineNo, nquads);
        this.pendingAt = 0;
        this.pendingPrefix = prefix;
        return;
      }
    } finally {
      flush(pos);
      input.pos = pos;
    }
    if (out.triples < max) await this.readMore(input);
  }

  /**
   * Reads the next bytes of an input after what is left of its text (a line cut by the read); ends it at its
   * end. The cut line is joined alone (a copy of one line, not of the whole read); the read follows it.
   */
  private async readMore(input: OpenInput): Promise<void> {
    const rest = input.buf.subarray(input.pos);
    if (input.queued) {
      input.buf = input.queued;
      input.pos = input.queuedAt;
      input.queued = undefined;
      return;
    }
    const next = await input.bytes!.next();
    if (next.done) {
      input.ended = rest.length === 0;
      // A last line without a newline gets one: the next input's first line must not join it.
      input.buf = rest.length > 0 ? Buffer.concat([rest, Buffer.from('\n')]) : Buffer.alloc(0);
      input.pos = 0;
      return;
    }
    let bytes = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    if (!input.started && bytes.length > 0) {
      input.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    input.pos = 0;
    if (rest.length === 0) {
      input.buf = bytes;
      return;
    }
    const nl = bytes.indexOf(NEWLINE);
    if (nl >= 0) {
      input.buf = Buffer.concat([rest, bytes.subarray(0, nl + 1)]);
      input.queued = bytes;
      input.queuedAt = nl + 1;
      return;
    }
    // No line ends in this read: the cut line's reads are kept and joined once, when it ends (joined at each read,
    // a long line was copied again for each MiB of it: time and memory quadratic in its length), or refused as soon
    // as it is longer than the limit (at most the limit and one read held).
    const pieces = [rest, bytes];
    let length = rest.length + bytes.length;
    for (;;) {
      if (length > this.maxLineBytes)
        throw tooLarge(`line ${input.line} is`, this.maxLineBytes, input.source.source, input.line);
      const more = await input.bytes!.next();
      if (more.done) {
        input.buf = Buffer.concat([...pieces, Buffer.from('\n')]);
        return;
      }
      const read = Buffer.from(more.value.buffer, more.value.byteOffset, more.value.byteLength);
      const end = read.indexOf(NEWLINE);
      if (end >= 0) {
        input.buf = Buffer.concat([...pieces, read.subarray(0, end + 1)]);
        input.queued = read;
        input.queuedAt = end + 1;
        return;
      }
      pieces.push(read);
      length += read.length;
    }
  }

  /** Counts a plain line's triple (the scan's terms) like {@link countQuad}, and looks for the dataset; whether the triple is one no other record repeats. */
  private countPlain(buf: Buffer, lookForDataset: boolean): boolean {
    const s = this.scan;
    if (s.graphAt >= 0) this.namedGraphQuads++;
    if (s.subjectBlank || s.objectBlank) {
      this.blankNodeTriples++;
      return false;
    }
    // Lines of one subject follow one another: its IRI is decoded and tested once (compared in place, no copy).
    if (this.lastSubject.compare(buf, s.subjectStart, s.subjectEnd) !== 0) {
      this.lastSubject = Buffer.from(buf.subarray(s.subjectStart, s.subjectEnd));
      this.lastSubjectShared = isSharedEntityIri(this.lastSubject.toString('utf8'));
    }
    if (this.lastSubjectShared) {
      this.sharedTriples++;
      this.distinctShared.addRanges(
        buf,
        s.subjectStart,
        s.subjectEnd,
        s.predicateStart,
        s.predicateEnd,
        s.objectStart,
        s.objectEnd,
      );
    }
    if (
      lookForDataset &&
      this.datasetIri === undefined &&
      s.objectIri &&
      RDF_TYPE.compare(buf, s.predicateStart, s.predicateEnd) === 0
    ) {
      if (DATASET_CLASSES.some((c) => c.compare(buf, s.objectStart, s.objectEnd) === 0))
        this.datasetIri = this.lastSubject.toString('utf8');
    }
    return !this.lastSubjectShared;
  }
}
