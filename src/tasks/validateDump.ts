import type * as RDF from '@rdfjs/types';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ToolkitError } from '../errors.js';
import type { FormatName } from '../formats.js';
import { decodeUtf8 } from '../parse/decodeUtf8.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { parseRdf, resolveFormat, sniffRdf, type RdfInput } from '../parse/parseRdf.js';
import { writeText } from '../pipeline/writeText.js';
import { detectSchemaScheme } from '../shacl/detectSchemaScheme.js';
import { groupNTriplesRecords, type NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import { groupRecords } from '../group/groupRecords.js';
import { recordTextsOf } from '../group/recordTextsOf.js';
import { regroupRecords } from '../group/regroupRecords.js';
import { ParallelRecordValidator, type RecordValidating } from '../shacl/ParallelRecordValidator.js';
import { RecordValidator } from '../shacl/RecordValidator.js';
import { ValidationReportWriter } from '../shacl/ValidationReportWriter.js';
import { ValidationSummary } from '../shacl/ValidationSummary.js';
import { validateNTriples, validateRecordTexts, validateStream } from '../shacl/validateStream.js';
import { refuseOverwritingInputs, shapeFiles } from './refuseOverwritingInputs.js';

/** Options of {@link validateDump}. */
export interface ValidateDumpOptions {
  /** RDF files (any of the five formats, `.gz` too); `-` reads `stdin`. */
  files: readonly string[];
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** The folder relative names are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** A directory (or file) of SHACL shapes in Turtle. Defaults to the shipped shapes. */
  shapesDir?: string;
  /** Write the full SHACL validation report (Turtle) here; never one of the inputs. Defaults to none. */
  reportPath?: string;
  /** The inputs' format (a name or an alias: `ttl`, `nt`, ...). Defaults to each file's extension, else sniffed. */
  format?: string;
  /** Example violations the summary keeps. Defaults to 5. */
  maxExamples?: number;
  /** Records that may be open at once (a record is complete when this many newer ones started). Defaults to 4. */
  window?: number;
  /** Worker threads; `auto`: one per core, at most 8. Defaults to `auto` for inputs of 16 MiB or more, else 1. */
  jobs?: number | 'auto';
  /** Bring each record's quads together first (dumps sorted by subject), through temporary files. Defaults to false. */
  regroup?: boolean;
  /** Stops the run (code `aborted`); no partial report is left. Defaults to none. */
  signal?: AbortSignal;
  /** Told the number of worker threads once they run (more than 1). Defaults to none. */
  onWorkers?: (jobs: number) => void;
}

/** What {@link validateDump} found. */
export interface ValidateDumpSummary {
  /** Whether every record conforms (an input with nothing in it does not). */
  conforms: boolean;
  /** Counts per shape, examples and the lines to print (`toLines()`). */
  summary: ValidationSummary;
  /** Results written to the report, when one was asked for. */
  reportResults: number;
  /** Worker threads used (1: the calling thread). */
  jobs: number;
}

/**
 * Checks RDF dumps against SHACL shapes record by record, in flat memory:
 * each record's quads (its work and the nodes it names) are validated
 * together. A run that stops leaves no report (a report of part of the input
 * would say the rest conforms); its error's details say how many records
 * were validated before (`records`, `notConforming`).
 */
export async function validateDump(options: ValidateDumpOptions): Promise<ValidateDumpSummary> {
  const cwd = options.cwd ?? process.cwd();
  const here = (p: string) => (p === '-' ? p : resolve(cwd, p));
  const files = options.files;
  if (files.filter((f) => f === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
  if (options.reportPath !== undefined) {
    const shapes = shapeFiles(options.shapesDir === undefined ? undefined : here(options.shapesDir));
    refuseOverwritingInputs([{ path: here(options.reportPath), what: 'the report' }], [...files.map(here), ...shapes]);
  }
  const jobsOption = options.jobs ?? (inputBytes(files.map(here)) >= AUTO_JOBS_BYTES ? 'auto' : 1);
  const jobs = jobsOption === 'auto' ? Math.min(8, availableParallelism()) : jobsOption;
  if (!Number.isInteger(jobs) || jobs < 1) throw new ToolkitError(`\`jobs\` must be a positive integer or auto, not ${String(jobsOption)}`, 'usage');
  const window = options.window ?? 4;
  // A dump written with schema.org's https IRIs is checked against the same shapes, their schema.org IRIs rewritten.
  const firstFile = files.find((f) => f !== '-');
  const schemaScheme = firstFile === undefined ? 'http' : await detectSchemaScheme(here(firstFile));
  const shapesOptions = { ...(options.shapesDir ? { shapesDir: here(options.shapesDir) } : {}), schemaScheme };
  const parallel = jobs > 1 ? await ParallelRecordValidator.create({ ...shapesOptions, workers: jobs }) : undefined;
  if (parallel) options.onWorkers?.(jobs);
  const validator: RecordValidating = parallel ?? (await RecordValidator.create(shapesOptions));
  const summary = new ValidationSummary({ maxExamples: options.maxExamples ?? 5 });
  const report = options.reportPath !== undefined ? new ReportFile(here(options.reportPath)) : undefined;
  let stopped = true;
  try {
    for (const file of files) {
      const opened = await openRdfFile(here(file), options.stdin);
      const source = file === '-' ? '<stdin>' : file;
      let input: RdfInput = opened.input;
      let format = options.format ? resolveFormat(options.format) : opened.format;
      if (format === undefined) ({ format, text: input } = await sniffRdf(input));
      const signal = options.signal;
      const streamOptions = { window, concurrency: jobs * 4, ...(signal ? { signal } : {}), onSplitRecord: () => summary.splitRecords++ };
      const outcomes = options.regroup
        ? validateRecordTexts(regroupRecords(regroupInput(input, format, source, signal, window), { buckets: bucketsFor(file === '-' ? undefined : here(file)) }), validator, streamOptions)
        : format === 'ntriples' || format === 'nquads'
          ? // Cut into the lines of each record; parsed where validated (in the workers).
            validateNTriples(input, validator, { ...streamOptions, format, source })
          : validateStream(quadsOf(input, format, source, signal), validator, streamOptions);
      for await (const { key, outcome } of outcomes) {
        summary.add(key === undefined ? undefined : safeDecode(key), outcome);
        if (report && outcome.results.length) await report.write(outcome.results);
      }
    }
    stopped = false;
  } catch (err) {
    if (!(err instanceof ToolkitError)) throw err;
    throw new ToolkitError(err.message, err.code, { cause: err, details: { ...err.details, records: summary.records, notConforming: summary.records - summary.conforming } });
  } finally {
    await parallel?.close();
    await report?.close(!stopped);
  }
  // An empty input (or one the parser read as nothing) is no proof of conformance.
  const conforms = summary.conforms && summary.records + summary.otherGroups > 0;
  return { conforms, summary, reportResults: report?.results ?? 0, jobs };
}

/** The SHACL report being written: kept only when the whole input was validated. */
class ReportFile {
  private readonly stream: WriteStream;
  private readonly writer = new ValidationReportWriter();

  constructor(private readonly path: string) {
    this.stream = createWriteStream(path);
    this.stream.write(this.writer.start());
  }

  get results(): number {
    return this.writer.results;
  }

  async write(results: Parameters<ValidationReportWriter['write']>[0]): Promise<void> {
    await writeText(this.stream, this.writer.write(results));
  }

  /** Ends the report (`complete`), or removes it. */
  async close(complete: boolean): Promise<void> {
    if (complete) {
      this.stream.end(this.writer.end());
      await finished(this.stream).catch((err: Error) => {
        throw new ToolkitError(`cannot write the report ${this.path}: ${err.message}`, 'io', { cause: err });
      });
      return;
    }
    // A report of part of the input would say that the rest conforms: none is left.
    this.stream.destroy();
    await finished(this.stream).catch(() => undefined);
    rmSync(this.path, { force: true });
  }
}

/** The groups of an input for {@link regroupRecords}: N-Triples lines as read, other formats as N-Triples of their quads. */
function regroupInput(input: RdfInput, format: FormatName | undefined, source: string, signal: AbortSignal | undefined, window: number): AsyncIterable<NTriplesRecordGroup> {
  if (format === 'ntriples' || format === 'nquads') return groupNTriplesRecords(decodeUtf8(input), { format, source, window, keepBlankOwners: true });
  return recordTextsOf(groupRecords(quadsOf(input, format, source, signal), { window, keepBlankOwners: true }), source);
}

/** The quads of an input as validate reads them: graphs ignored (so JSON-LD dumps stream). */
function quadsOf(input: RdfInput, format: FormatName | undefined, source: string, signal: AbortSignal | undefined): AsyncIterable<RDF.Quad> {
  return parseRdf(input, { format, source, ...(signal ? { signal } : {}), ignoreGraphs: true, strict: true });
}

/** Temporary files for regrouping: one per 16 MiB of (uncompressed, estimated) input, 16 to 1,024; 256 for stdin. */
function bucketsFor(path: string | undefined): number {
  if (path === undefined) return 256;
  const bytes = inputBytes([path]) * (/\.gz$/i.test(path) ? 8 : 1);
  return Math.min(1024, Math.max(16, Math.ceil(bytes / (16 * 2 ** 20))));
}

/** From this size of input on, worker threads pay for their start (about a third of a second) many times over. */
const AUTO_JOBS_BYTES = 16 * 2 ** 20;

/** Bytes of the input files (stdin and unreadable files count nothing: they are reported when read). */
function inputBytes(paths: string[]): number {
  let total = 0;
  for (const p of paths) {
    if (p === '-') continue;
    try {
      total += statSync(p).size;
    } catch {
      // reported when the file is opened
    }
  }
  return total;
}

function safeDecode(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
