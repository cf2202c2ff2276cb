import { ToolkitError } from '../errors.js';
import { formatFromPath, formatInfo, formatsWith, labelList, type FormatName } from '../formats.js';
import { type ShardLimits, checkShardLimits } from '../output/ShardManifest.js';
import { ShardNaming } from '../output/ShardNaming.js';
import { oneLine } from '../pipeline/Rejection.js';
import {
  type NamedOutput,
  refuseOverwritingInputs,
  refuseUnfinishedExport,
  shapeFiles,
  shardOutputs,
} from './refuseOverwritingInputs.js';
import { escapeResolvedIri } from '../serialize/escape.js';
import type { Readable, Writable } from 'node:stream';
import type { ReadLimits } from '../parse/limits.js';
import type { Rejection } from '../pipeline/Rejection.js';

/** Options of `convertFiles`. */
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
   * machine's cores (more are lowered to them); not above 1 with `validate`
   * (1 then also validates in this thread; without `jobs`, `validate` runs
   * in a worker thread when the machine has two cores or more), nor with
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

/** What {@link planConvert} settled: where the output goes, in which format, and the side files. */
export interface ConvertPlan {
  /** Whether the output is a file (`output`), not the stream. */
  toFile: boolean;
  format: FormatName;
  /** The shards' names and limits; undefined for one output. */
  naming: ShardNaming | undefined;
  limits: ShardLimits | undefined;
  /** The rejects file, if any. */
  rejectsPath: string | undefined;
}

/**
 * A conversion's plan, computed once: its format (the option, else the
 * output's extension, else Turtle), its options checked, its outputs refused
 * when they would overwrite an input or an unfinished export's shards.
 */
export async function planConvert(options: ConvertFilesOptions): Promise<ConvertPlan> {
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
  return { toFile, format, naming, limits, rejectsPath };
}

/** The limits of shards, checked; undefined without them (one output). */
export function shardLimits(options: ConvertFilesOptions, toFile: boolean): ShardLimits | undefined {
  return checkShardLimits(options.shardRecords, options.shardBytes, toFile);
}

export function checkOptions(options: ConvertFilesOptions, format: FormatName): void {
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
