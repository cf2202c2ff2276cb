import type * as RDF from '@rdfjs/types';
import { availableParallelism } from 'node:os';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { ConvertStats, type ConvertSummary } from '../pipeline/ConvertStats.js';
import { IdentityConflicts } from '../pipeline/IdentityConflicts.js';
import { LineFile } from '../output/LineFile.js';
import { type Output, openOutput } from '../output/openOutput.js';
import { ToolkitError } from '../errors.js';
import { removeIfExists } from '../export/ExportState.js';
import { type ShardLimits, checkShardLimits, shardManifest, writeManifest } from '../output/ShardManifest.js';
import { ShardNaming } from '../output/ShardNaming.js';
import { ShardedOutput } from '../output/ShardedOutput.js';
import { formatFromPath, formatInfo, formatsWith, isGzipPath, labelList, type FormatName } from '../formats.js';
import { NS } from '../rdf/namespaces.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { storedBytes } from './inputSizes.js';
import { ProgressTicker } from './ProgressTicker.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { type ReadLimits, readLimitsOf } from '../parse/limits.js';
import {
  ParallelRecordSink,
  type ParallelRecordSinkOptions,
  type RecordPlace,
  type WrittenOutline,
} from '../pipeline/ParallelRecordSink.js';
import { RecordSink, type RecordSinkOptions } from '../pipeline/RecordSink.js';
import type { RecordValidation } from '../pipeline/RecordValidation.js';
import { type Rejection, describeRejection, oneLine, rejectionLine } from '../pipeline/Rejection.js';
import { Utf8Builder } from '../pipeline/Utf8Builder.js';
import { writeText } from '../output/writeText.js';
import { readRecords, type ReadItem } from '../record/readRecords.js';
import { DEFAULT_PREFIXES } from '../rdf/prefixes.js';
import type { RecordWriter, SerializerOptions } from '../serialize/QuadSerializer.js';
import { escapeResolvedIri } from '../serialize/escape.js';
import { serializerFor } from '../serialize/serializers.js';
import { classifyInput } from './classifyInput.js';
import { estimatedTextBytes } from './inputSizes.js';
import {
  type NamedOutput,
  refuseOverwritingInputs,
  refuseUnfinishedExport,
  shapeFiles,
  shardOutputs,
} from './refuseOverwritingInputs.js';

/** Options of {@link convertFiles}. */
export interface ConvertFilesOptions extends ReadLimits {
  /** Files of the service's JSON (an envelope, a record, an array or JSON lines), or RDF documents to re-serialise (`.gz` too); `-` reads `stdin`. */
  inputs: readonly string[];
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** Output file (`.gz` compresses), written beside its name and put in place at the end. Defaults to none: `stream`. */
  output?: string;
  /** Where the RDF goes without `output`. Defaults to none (required then). */
  stream?: Writable;
  /** Output format. Defaults to the output's extension, else Turtle. */
  format?: FormatName;
  /** Rejected records as JSON lines (see `Rejection`); `-` writes to `stream`. Defaults to `<output>.rejects.jsonl` with `output`, else none (counted only). */
  rejectsPath?: string;
  /** The notes of every written record (what was changed or left out) as JSON lines. Defaults to none. */
  notesPath?: string;
  /** Base of the IRIs minted for the nodes a record owns. Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** schema.org namespace, `http` or `https`. Defaults to `http`. */
  schemaScheme?: 'http' | 'https';
  /** N-Quads: the graph of every quad. Defaults to the default graph. */
  graph?: string;
  /** N-Quads or JSON-LD: each record in its own named graph `<base>record/<doi>`. Defaults to false. */
  graphPerRecord?: boolean;
  /** JSON-LD: reference the context by this URL instead of embedding it. Defaults to embedding. */
  jsonldContext?: string;
  /** Check every record against SHACL shapes; records that do not conform are rejected. Defaults to false. */
  validate?: boolean;
  /** With `validate`: a directory (or file) of shapes instead of the shipped ones. Defaults to the shipped shapes. */
  shapesDir?: string;
  /** Stop (code `records-rejected`) at the first rejected record. Defaults to false. */
  strict?: boolean;
  /** Stops the run (code `aborted`); no partial output file is kept. Defaults to none. */
  signal?: AbortSignal;
  /** Called for every rejected record. Defaults to none. */
  onRejected?: (rejection: Rejection) => void;
  /** Called with remarks a person may want (an `-o` name that says another format). Defaults to none. */
  onWarning?: (message: string) => void;
  /** How far the conversion is, at most five times a second and once at the end. Defaults to none. */
  onProgress?: (progress: ConvertProgress) => void;
  /**
   * Cut the output into shards of at most this many records (statement groups
   * of an RDF input count as records), each a complete document, named after
   * `output` (`dump.nq.gz`: `dump.00001.nq.gz`, …) and listed with their
   * counts and SHA-256 in `dump.manifest.json` (see docs/shards.md). Needs
   * `output`. Defaults to none (one file).
   */
  shardRecords?: number;
  /**
   * Cut the output into shards of at most this many bytes of text (before
   * compression; a record alone larger still makes one shard). With
   * `shardRecords`, a shard ends at whichever comes first. Needs `output`.
   * Defaults to none (one file).
   */
  shardBytes?: number;
  /**
   * Read, normalise, map and write records in this many worker threads
   * (`ParallelRecordSink`: each reads parts of the input's bytes): the same
   * output byte for byte, faster on a machine with idle cores. At most the
   * machine's cores (more are lowered to them); not with `validate` or
   * shards. Defaults to one per core (at most 8) for inputs of 16 MiB of
   * text or more (a `.gz` file's estimated; not stdin) without `validate`
   * or shards, else 1 (this thread): see docs/scale.md for the crossover.
   */
  jobs?: number;
}

/** How far a conversion is: {@link ConvertFilesOptions.onProgress}. */
export interface ConvertProgress {
  /** Bytes of the inputs read so far, as stored (a `.gz` file's compressed bytes). */
  bytesRead: number;
  /** Bytes of all the inputs as stored; `null` when one of them is stdin (its size is not known). */
  totalBytes: number | null;
  /** Records read so far (written or rejected). */
  records: number;
  /** Records rejected among them. */
  rejected: number;
  /** Statements written so far. */
  statements: number;
  /** Time since the inputs began to be read, ms. */
  elapsedMs: number;
}

/**
 * Converts saved responses of the service to one RDF output: reads every
 * input record by record, and passes each through the record pipeline
 * (normalise, map, validate, de-duplicate, write). An input that is an RDF
 * document (any of the five formats, by extension or content: see
 * {@link classifyInput}) is re-serialised statement by statement instead. Memory does not grow with
 * the number of records. A run that fails leaves no partial output file (an
 * existing one stays as it was). Rejected records are in the summary's count,
 * the rejects file and `onRejected`, never lost.
 */
export async function convertFiles(options: ConvertFilesOptions): Promise<ConvertSummary> {
  const toFile = options.output !== undefined && options.output !== '-';
  const fromPath = toFile ? formatFromPath(options.output!) : undefined;
  const format: FormatName = options.format ?? fromPath ?? 'turtle';
  checkOptions(options, format);
  if (options.format && fromPath && fromPath !== format)
    options.onWarning?.(
      `writing ${formatInfo(format).label} to ${options.output}, whose name says ${formatInfo(fromPath).label} (\`format\` wins)`,
    );
  if (!toFile && !options.stream)
    throw new ToolkitError('convertFiles needs an output file (`output`) or a stream (`stream`)', 'usage');
  const limits = shardLimits(options, toFile);
  const naming = limits ? new ShardNaming(options.output!, format) : undefined;

  const rejectsPath =
    options.rejectsPath ?? (toFile ? `${options.output!.replace(/\.gz$/i, '')}.rejects.jsonl` : undefined);
  const outputs: NamedOutput[] = [
    ...(naming ? shardOutputs(naming, '`output`') : toFile ? [{ path: options.output!, what: '`output`' }] : []),
    ...(rejectsPath ? [{ path: rejectsPath, what: '`rejectsPath`' }] : []),
    ...(options.notesPath ? [{ path: options.notesPath, what: '`notesPath`' }] : []),
  ];
  refuseOverwritingInputs(outputs, [...options.inputs, ...(options.validate ? shapeFiles(options.shapesDir) : [])]);
  if (naming) await refuseUnfinishedExport(options.output!);
  const stats = new ConvertStats();
  const fallback = options.stream ?? new PassThrough();
  const rejects = rejectsPath ? new LineFile(rejectsPath, fallback) : undefined;
  const notes = options.notesPath ? new LineFile(options.notesPath, fallback) : undefined;
  // SHACL (its engine and shapes) is loaded only for a run that validates.
  const validation = options.validate
    ? await (
        await import('./createRecordValidation.js')
      ).createRecordValidation({
        ...(options.shapesDir ? { shapesDir: options.shapesDir } : {}),
        schemaScheme: options.schemaScheme ?? 'http',
      })
    : undefined;
  const writer = serializerFor(format).createWriter(serializerOptions(options));
  const target =
    naming && limits
      ? new ShardTarget(
          ShardedOutput.create({
            naming,
            writer,
            limits,
            gzip: isGzipPath(options.output!),
            commitEvery: SHARD_COMMIT,
          }),
          format,
        )
      : new FileTarget(await openOutput(toFile ? options.output : undefined, fallback), writer, options.signal);
  const conflicts = new IdentityConflicts();
  // A record's notes, with the conflicts it brings with the records before it (naming both; counted as notes too).
  const noteLine = async (
    item: RecordPlace,
    doi: string,
    mappedNotes: readonly string[],
    found: readonly string[],
  ): Promise<void> => {
    const recordNotes = found.length ? [...mappedNotes, ...found] : mappedNotes;
    stats.notes += found.length;
    if (recordNotes.length === 0 || !notes) return;
    const where = { source: item.source, index: item.index, ...(item.line !== undefined ? { line: item.line } : {}) };
    await notes.append(`${JSON.stringify({ ...where, recordId: doi, notes: recordNotes })}\n`);
  };
  const observed = (doi: string, written: Pick<WrittenOutline, 'identities'>): string[] =>
    conflicts.observe(doi, written.identities).map((c) => c.note);
  const sink = makeSink(target.writer, options, format, validation, {
    onRejected: async (rejection) => {
      stats.addRejected(rejection);
      // A DOI met again with different content: a conflict, noted on the rejected record's line.
      if (rejection.conflict !== undefined && rejection.index !== undefined) {
        conflicts.add(rejection.conflict);
        await noteLine(rejection as RecordPlace, rejection.recordId, [], [rejection.conflict]);
      }
      options.onRejected?.(rejection);
      await rejects?.append(rejectionLine(rejection));
      if (options.strict)
        throw new ToolkitError(
          `\`strict\`: stopped at the first rejected record: ${describeRejection(rejection)}`,
          'records-rejected',
        );
    },
    onWritten: async ({ item, mapped }) => {
      stats.addMapped(mapped);
      target.written(mapped.quads, mapped.doi);
      await noteLine(item, mapped.doi, mapped.notes, observed(mapped.doi, mapped));
    },
    // With `jobs` (no shards: see checkOptions): the quads stayed in a worker, the outline says what to count.
    onWrittenInWorker: async ({ item, mapped }) => {
      stats.addWritten(mapped);
      await noteLine(item, mapped.doi, mapped.notes, observed(mapped.doi, mapped));
    },
  });
  // The workers' buffers go back to them once written out (their next parts are written into them).
  if (sink instanceof ParallelRecordSink && target instanceof FileTarget)
    target.onWritten = (bytes) => sink.release(bytes);
  let manifestPath: string | null;
  let closed: PromiseSettledResult<unknown>[];
  const read = { bytes: 0 };
  const totalBytes = storedBytes(options.inputs);
  const progress = new ProgressTicker(
    options.onProgress &&
      ((elapsedMs) =>
        options.onProgress!({
          bytesRead: read.bytes,
          totalBytes,
          records: stats.read,
          rejected: stats.rejected,
          statements: stats.triples,
          elapsedMs,
        })),
  );
  const onRead = (bytes: number): void => {
    read.bytes += bytes;
    progress.tick();
  };
  try {
    await target.add(sink.start());
    for (const path of options.inputs) await convertInput(path, options, sink, target, stats, onRead);
    progress.flush();
    manifestPath = await target.finish(await sink.end());
  } catch (err) {
    // Never leave a half-written file that looks complete (a cut Turtle file is still valid Turtle).
    await target.discard();
    throw err;
  } finally {
    if (sink instanceof ParallelRecordSink) await sink.close();
    // Both side files are closed, whatever happened (a failure of the conversion itself goes on as it was).
    closed = await Promise.allSettled([rejects?.close(), notes?.close()]);
  }
  // A side file that could not be written is an error after the output is in place.
  const failed = closed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return {
    ...stats.toSummary(),
    ...conflicts.summary(),
    format,
    output: toFile ? options.output! : null,
    manifestPath,
    rejectsPath: rejects && rejects.lines > 0 ? rejectsPath! : null,
    notesPath: notes && notes.lines > 0 ? options.notesPath! : null,
  };
}

/** The record pipeline of a conversion: the one place it is made (in worker threads with `jobs` above 1). */
function makeSink(
  writer: RecordWriter,
  options: ConvertFilesOptions,
  format: FormatName,
  validation: RecordValidation | undefined,
  on: Pick<RecordSinkOptions, 'onRejected' | 'onWritten'> & {
    onWrittenInWorker: ParallelRecordSinkOptions['onWritten'];
  },
): RecordSink | ParallelRecordSink {
  const mapOptions = {
    ...(options.base ? { base: options.base } : {}),
    schemaScheme: options.schemaScheme ?? 'http',
    ...(options.graphPerRecord ? { graphPerRecord: true } : {}),
  } as const;
  const jobs = Math.min(options.jobs ?? defaultJobs(options), availableParallelism());
  if (jobs > 1) {
    const signal = options.signal ? { signal: options.signal } : {};
    return new ParallelRecordSink({
      ...mapOptions,
      ...readLimitsOf(options),
      format,
      serializer: serializerOptions(options),
      jobs,
      ...signal,
      onRejected: on.onRejected,
      onWritten: on.onWrittenInWorker,
    });
  }
  return new RecordSink(writer, {
    ...mapOptions,
    format,
    ...(validation ? { validation } : {}),
    onRejected: on.onRejected,
    onWritten: on.onWritten,
  });
}

/** Inputs of this much text or more are converted in worker threads unless `jobs` says otherwise (docs/scale.md: the crossover). */
const AUTO_JOBS_BYTES = 16 * 2 ** 20;

/** `jobs` when not given: one per core (at most 8) for a large input that can go to workers, else 1. */
function defaultJobs(options: ConvertFilesOptions): number {
  if (options.validate || options.shardRecords !== undefined || options.shardBytes !== undefined) return 1;
  return estimatedTextBytes(options.inputs) >= AUTO_JOBS_BYTES ? Math.min(availableParallelism(), 8) : 1;
}

/** Reads one input into the sink: records batch by batch (or, in worker threads, part by part), or an RDF document's statements. */
async function convertInput(
  path: string,
  options: ConvertFilesOptions,
  sink: RecordSink | ParallelRecordSink,
  target: ConvertTarget,
  stats: ConvertStats,
  onRead: (bytes: number) => void,
): Promise<void> {
  const file = await openRdfFile(path, options.stdin, onRead, options.maxDocumentChars);
  const bytes = sink instanceof ParallelRecordSink ? new HeadKept(file.input) : undefined;
  const input = await classifyInput(path, bytes ? bytes.chunks() : file.input);
  if (input.kind === 'rdf') {
    // An RDF document is re-serialised as it is, streaming (as riot does): its statements, not records.
    for await (const group of subjectGroups(
      parseRdfQuads(input.input, {
        format: input.format,
        source: file.source,
        ...readLimitsOf(options),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    )) {
      // After the records in flight: ParallelRecordSink writes the group itself, in order.
      if (sink instanceof ParallelRecordSink) await target.add(await sink.writeQuads(group));
      else await target.statements(group);
      stats.addStatements(group.length);
    }
    return;
  }
  if (sink instanceof ParallelRecordSink) {
    // The workers read the input's bytes themselves, part by part: this thread neither decodes nor parses it.
    for await (const text of sink.takeInput(bytes!.again(), file.source)) await target.add(text);
    return;
  }
  let batch: ReadItem[] = [];
  for await (const item of readRecords(input.input, { source: file.source, ...readLimitsOf(options) })) {
    batch.push(item);
    if (batch.length < sink.batchSize) continue;
    await target.add(await sink.take(batch));
    batch = [];
  }
  await target.add(await sink.take(batch));
}

/** An input's chunks, read once, for a sniffer and then, from the start again, for the reader of its bytes: the head the sniffer read is kept. */
class HeadKept {
  private readonly head: Uint8Array[] = [];
  private readonly source: AsyncIterator<Uint8Array>;

  constructor(input: AsyncIterable<Uint8Array>) {
    this.source = input[Symbol.asyncIterator]();
  }

  /** The chunks, each kept as it is read (read lazily: the sniffer reads no more than it needs). */
  async *chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      this.head.push(next.value);
      yield next.value;
    }
  }

  /** The chunks from the start: those read so far, then the rest. */
  async *again(): AsyncGenerator<Uint8Array> {
    yield* this.head.splice(0);
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      yield next.value;
    }
  }
}

/** Where a conversion writes: one file (or a stream), or shards. */
interface ConvertTarget {
  /** The writer the records go through. */
  readonly writer: RecordWriter;
  /** A record was written by `writer`: its statements and DOI. */
  written(quads: readonly RDF.Quad[], doi: string): void;
  /** Text the sink made (of the records written since, or its opening and closing), or its UTF-8 bytes. */
  add(text: string | Uint8Array): Promise<void>;
  /** Statements of an RDF input, written as they are. */
  statements(quads: RDF.Quad[]): Promise<void>;
  /** Ends the output with `end` and puts it in place; the manifest's path for shards. */
  finish(end: string | Uint8Array): Promise<string | null>;
  /** Removes what was written (a run that failed). */
  discard(): Promise<void>;
}

/** One output: texts encoded as they come into buffers of about {@link CHUNK} bytes, written with the bytes of worker threads in their order. */
class FileTarget implements ConvertTarget {
  /** Bytes to write before the text in `pending`. */
  private bytes: Uint8Array[] = [];
  private byteCount = 0;
  private pending = new Utf8Builder(CHUNK + (CHUNK >> 2));
  /** Called with bytes added once the output took them (they may be reused). Defaults to none. */
  onWritten: ((bytes: Uint8Array) => void) | undefined;

  constructor(
    private readonly output: Output,
    readonly writer: RecordWriter,
    private readonly signal: AbortSignal | undefined,
  ) {}

  written(): void {}

  async add(text: string | Uint8Array): Promise<void> {
    this.gather(text);
    if (this.byteCount + this.pending.length >= CHUNK) await this.flush();
  }

  async statements(quads: RDF.Quad[]): Promise<void> {
    await this.add(this.writer.write(quads));
  }

  async finish(end: string | Uint8Array): Promise<null> {
    this.gather(end);
    await this.flush();
    await this.output.close();
    return null;
  }

  discard(): Promise<void> {
    return this.output.discard();
  }

  /**
   * Text is encoded at once, a record's worth at a time (encoding the long text
   * of many records joined costs V8 more: it first flattens the joined string);
   * bytes are kept as they came (slices of the workers' buffers: no copy).
   */
  private gather(text: string | Uint8Array): void {
    if (typeof text === 'string') {
      this.pending.add(text);
      return;
    }
    this.takePending();
    this.bytes.push(text);
    this.byteCount += text.length;
  }

  private takePending(): void {
    if (this.pending.length === 0) return;
    const bytes = this.pending.bytes();
    this.bytes.push(bytes);
    this.byteCount += bytes.length;
    this.pending = new Utf8Builder(CHUNK + (CHUNK >> 2));
  }

  private async flush(): Promise<void> {
    this.takePending();
    const chunks = this.bytes;
    this.bytes = [];
    this.byteCount = 0;
    const done = this.onWritten;
    for (const chunk of chunks) await writeText(this.output.stream, chunk, this.signal, done && (() => done(chunk)));
  }
}

/** Shards: each record's text goes where the sharded output cuts; the shards and the manifest are put in place at the end. */
class ShardTarget implements ConvertTarget {
  constructor(
    private readonly sharded: ShardedOutput,
    private readonly format: FormatName,
  ) {}

  get writer(): RecordWriter {
    return this.sharded.writer;
  }

  written(quads: readonly RDF.Quad[], doi: string): void {
    this.sharded.note(quads, doi);
  }

  /** The text is each shard's already (the sink's opening and closing are empty). */
  async add(): Promise<void> {
    await this.sharded.flush();
  }

  async statements(quads: RDF.Quad[]): Promise<void> {
    this.sharded.writeStatements(quads);
    await this.sharded.flush();
  }

  async finish(): Promise<string> {
    const shards = await this.sharded.finish();
    const { naming } = this.sharded;
    // No manifest while the shards are put in place: an old one would list files that are no longer its.
    await removeIfExists(naming.manifestPath);
    await this.sharded.place();
    await writeManifest(
      naming.manifestPath,
      shardManifest({ format: this.format, gzip: isGzipPath(naming.output), limits: this.sharded.limits, shards }),
    );
    return naming.manifestPath;
  }

  discard(): Promise<void> {
    return this.sharded.discard();
  }
}

/** Uncompressed bytes a shard of a conversion gathers before it is written. */
const SHARD_COMMIT = 1 << 20;

/** Consecutive quads of one subject and graph, in groups of at most 1,000 (what a record writer writes best). */
async function* subjectGroups(quads: AsyncIterable<RDF.Quad>): AsyncGenerator<RDF.Quad[]> {
  let group: RDF.Quad[] = [];
  for await (const q of quads) {
    const last = group[group.length - 1];
    if (last && (group.length >= 1000 || !last.subject.equals(q.subject) || !last.graph.equals(q.graph))) {
      yield group;
      group = [];
    }
    group.push(q);
  }
  if (group.length > 0) yield group;
}

/** Output is gathered into writes of about this many bytes. */
const CHUNK = 1 << 20;

function serializerOptions(options: ConvertFilesOptions): SerializerOptions {
  return {
    prefixes: options.schemaScheme === 'https' ? { ...DEFAULT_PREFIXES, schema: NS.schemaHttps } : DEFAULT_PREFIXES,
    ...(options.graph ? { graph: options.graph } : {}),
    ...(options.jsonldContext ? { jsonldContext: options.jsonldContext } : {}),
  };
}

/** The limits of shards, checked; undefined without them (one output). */
function shardLimits(options: ConvertFilesOptions, toFile: boolean): ShardLimits | undefined {
  return checkShardLimits(options.shardRecords, options.shardBytes, toFile);
}

function checkOptions(options: ConvertFilesOptions, format: FormatName): void {
  if (options.graph !== undefined) checkIriOption('`graph`', options.graph);
  if (options.graphPerRecord && options.graph !== undefined)
    throw new ToolkitError(
      '`graph` (one graph for all records) and `graphPerRecord` (a graph for each) do not go together',
      'usage',
    );
  if (options.graph !== undefined && !formatInfo(format).anyGraph)
    throw new ToolkitError(
      `\`graph\` needs ${labelList(formatsWith('anyGraph'))} output, not ${formatInfo(format).label}`,
      'usage',
    );
  if (options.graphPerRecord && !formatInfo(format).namedGraphs) {
    throw new ToolkitError(
      `\`graphPerRecord\` needs ${labelList(formatsWith('namedGraphs'))} output, not ${formatInfo(format).label}, which has no named graphs`,
      'usage',
    );
  }
  if (options.jobs !== undefined && (!Number.isSafeInteger(options.jobs) || options.jobs < 1))
    throw new ToolkitError(`\`jobs\` must be a whole number of at least 1, not ${options.jobs}`, 'usage');
  if ((options.jobs ?? 1) > 1 && options.validate)
    throw new ToolkitError(
      '`jobs` above 1 and `validate` do not go together yet (records are validated in this thread): leave one out',
      'usage',
    );
  if ((options.jobs ?? 1) > 1 && (options.shardRecords !== undefined || options.shardBytes !== undefined))
    throw new ToolkitError(
      '`jobs` above 1 and shards (`shardRecords`, `shardBytes`) do not go together yet: leave one out',
      'usage',
    );
  if (options.shapesDir !== undefined && !options.validate)
    throw new ToolkitError('`shapesDir` goes with `validate`', 'usage');
  // The base starts every IRI minted for a record: a bad one would make every record unwritable.
  if (options.base !== undefined) checkIriOption('`base`', options.base);
  if (options.inputs.filter((i) => i === '-').length > 1)
    throw new ToolkitError('standard input (-) can be read only once', 'usage');
}

/** A usage error unless an option's value is an absolute IRI every format can write as it is. */
export function checkIriOption(name: string, value: string): void {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value))
    throw new ToolkitError(`${name} "${oneLine(value)}" is not an absolute IRI`, 'usage');
  try {
    escapeResolvedIri(value);
  } catch (err) {
    if (err instanceof ToolkitError && err.code === 'serialization') {
      throw new ToolkitError(`${name} "${oneLine(value)}" cannot be used: ${err.message}`, 'usage', { cause: err });
    }
    throw err;
  }
}
