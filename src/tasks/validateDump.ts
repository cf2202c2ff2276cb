import type * as RDF from '@rdfjs/types';
import { renameSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolkitError, ioError, isIoFailure } from '../errors.js';
import { isLineFormat, type LineFormat } from '../formats.js';
import { decodeUtf8 } from '../parse/decodeUtf8.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { resolveFormat, sniffRdf, type RdfInput } from '../parse/parseRdf.js';
import { detectSchemaScheme } from '../shacl/detectSchemaScheme.js';
import { regroupRecords } from '../group/regroupRecords.js';
import { ParallelRecordValidator, type RecordValidating } from '../shacl/ParallelRecordValidator.js';
import { RecordValidator } from '../shacl/RecordValidator.js';
import { ValidationSummary } from '../shacl/reports/ValidationSummary.js';
import { validateNTriples, validateRecordTexts, validateStream } from '../shacl/validateStream.js';
import { loadShapes } from '../shacl/loadShapes.js';
import { CopiesTold, ScopeCheck } from '../shacl/scope/recordScope.js';
import { validateFileParts } from '../shacl/validateFileParts.js';
import { MAX_GRAPH_TRIPLES, validateGraph } from '../shacl/validateGraph.js';
import { FAIL_ON, chooseMode, runVerdict } from '../shacl/scope/validationMode.js';
import { estimatedTextBytes, storedBytes } from './inputSizes.js';
import { ProgressTicker } from './ProgressTicker.js';
import { refuseFilesBeingExported } from './refuseFilesBeingExported.js';
import { quadsOf, regroupInput } from './regroupInput.js';
import { ReportFile } from './ReportFile.js';
import { readLimitsOf } from '../parse/limits.js';
import { timeline } from '../shacl/validationTimeline.js';
import { refuseOverwritingInputs, shapeFiles } from './refuseOverwritingInputs.js';
import type { ValidateDumpOptions, ValidateDumpSummary } from './validateDumpOptions.js';

export type { ValidateDumpOptions, ValidateDumpSummary, ValidateProgress } from './validateDumpOptions.js';

/**
 * Checks RDF dumps against SHACL shapes record by record, in flat memory:
 * each record's quads (its work and the nodes it names) are validated
 * together. A run that stops leaves no report (a report of part of the input
 * would say the rest conforms); its error's details say how many records
 * were validated before (`records`, `notConforming`).
 */
export async function validateDump(options: ValidateDumpOptions): Promise<ValidateDumpSummary> {
  const started = performance.now();
  timeline?.mark('begin');
  const cwd = options.cwd ?? process.cwd();
  const here = (p: string) => (p === '-' ? p : resolve(cwd, p));
  const files = options.files;
  if (files.filter((f) => f === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
  if (options.reportPath !== undefined) {
    const shapes = shapeFiles(options.shapesDir === undefined ? undefined : here(options.shapesDir));
    refuseOverwritingInputs([{ path: here(options.reportPath), what: 'the report' }], [...files.map(here), ...shapes]);
  }
  const jobsOption = options.jobs ?? (estimatedTextBytes(files.map(here)) >= AUTO_JOBS_BYTES ? 'auto' : 1);
  if (jobsOption !== 'auto' && (!Number.isInteger(jobsOption) || jobsOption < 1))
    throw new ToolkitError(`\`jobs\` must be a positive integer or auto, not ${String(jobsOption)}`, 'usage');
  // More threads than cores only take turns (and memory): cut to the cores.
  const jobs =
    jobsOption === 'auto' ? Math.min(8, availableParallelism()) : Math.min(jobsOption, availableParallelism());
  await refuseFilesBeingExported(files.filter((f) => f !== '-').map(here), 'validate', {
    ...(options.ignoreExportLock ? { ignoreExportLock: true } : {}),
    ...(options.allowPartial ? { allowPartial: true } : {}),
  });
  // A report into a folder that is not there is refused now, before the work.
  if (options.reportPath !== undefined) ReportFile.checkFolder(here(options.reportPath));
  const window = options.window ?? 4;
  // A dump written with schema.org's https IRIs is checked against the same shapes, their schema.org IRIs rewritten.
  const firstFile = files.find((f) => f !== '-');
  const schemaScheme = firstFile === undefined ? 'http' : await detectSchemaScheme(here(firstFile));
  const shapesOptions = { ...(options.shapesDir ? { shapesDir: here(options.shapesDir) } : {}), schemaScheme };
  const failOn = options.failOn ?? 'violation';
  if (!FAIL_ON.includes(failOn))
    throw new ToolkitError(`\`failOn\` must be ${FAIL_ON.join(', ')}, not ${String(failOn)}`, 'usage');
  const requested = options.mode ?? 'auto';
  if (!['auto', 'record', 'graph'].includes(requested))
    throw new ToolkitError(`\`mode\` must be auto, record or graph, not ${String(requested)}`, 'usage');
  // The shapes decide: record by record when they read nothing beyond a record (and, in auto mode, each record is
  // checked for it). The validator reads the shapes and says (the workers too: the shapes are not read here then).
  const checkScope = requested === 'auto';
  timeline?.mark('spawn');
  let parallel =
    requested !== 'graph' && jobs > 1
      ? await ParallelRecordValidator.create({ ...shapesOptions, workers: jobs, checkScope })
      : undefined;
  const inProcess =
    parallel || requested === 'graph' ? undefined : await RecordValidator.create({ ...shapesOptions, checkScope });
  const mode = chooseMode(requested, { reasons: parallel?.reasons ?? inProcess?.scope.reasons ?? [] });
  if (mode.mode === 'graph' && parallel) {
    await parallel.close();
    parallel = undefined;
  }
  timeline?.mark('workers');
  if (parallel) options.onWorkers?.(jobs);
  const validator: RecordValidating | undefined = mode.mode === 'record' ? (parallel ?? inProcess) : undefined;
  const scope = new ScopeCheck();
  const told = new CopiesTold();
  const summary = new ValidationSummary({ maxExamples: options.maxExamples ?? 5 });
  const report =
    options.reportPath !== undefined
      ? await ReportFile.open(here(options.reportPath)).catch(closing(parallel))
      : undefined;
  let stopped = true;
  const read = { bytes: 0, total: storedBytes(files.map(here)), file: files[0] ?? '-' };
  const statements = { count: 0 };
  const progress = new ProgressTicker(
    options.onProgress &&
      ((elapsedMs) =>
        options.onProgress!({
          bytesRead: read.bytes,
          totalBytes: read.total,
          records: summary.records,
          notConforming: summary.records - summary.conforming,
          file: read.file,
          elapsedMs,
        })),
  );
  try {
    if (!validator) {
      const shapes = inProcess?.shapes ?? (await loadShapes(shapesOptions.shapesDir, { schemaScheme }));
      const graph = validateGraph(quadsOfFiles(files, here, options), {
        shapes,
        why: mode.why,
        ...(options.maxGraphTriples ? { maxTriples: options.maxGraphTriples } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const { results, records } = await graph;
      for (const { key, outcome } of records) summary.add(key === undefined ? undefined : safeDecode(key), outcome);
      if (report && results.length) await report.write(results);
    }
    for (const [i, file] of files.entries()) {
      if (!validator) break;
      await validateFile(file, i, {
        options,
        here,
        validator,
        jobs,
        window,
        summary,
        scope,
        told,
        report,
        progress,
        read,
        statements,
      });
    }
    await report?.flush();
    timeline?.mark('flushed');
    stopped = false;
  } catch (caught) {
    // The temporary files of `regroup` that could not be written (a full disk): named as what they are.
    const err =
      options.regroup && isIoFailure(caught)
        ? ioError(
            caught,
            caught.path ?? join(tmpdir(), 'scholarly-rdf-regroup-*'),
            'write',
            'the temporary files of `regroup`',
          )
        : caught;
    if (!(err instanceof ToolkitError)) throw err;
    throw new ToolkitError(err.message, err.code, {
      cause: err,
      details: { ...err.details, records: summary.records, notConforming: summary.records - summary.conforming },
    });
  } finally {
    await parallel?.close();
    await report?.close(!stopped);
  }
  if (!scope.exact) {
    // Record by record was not enough (a record names another's node, copies of a shared node differ...): the whole
    // graph, when it can be read again (not stdin), records were whole (split ones are a failure: `regroup` them)
    // and it fits in memory; else these results, which fail the run.
    const whole =
      !files.includes('-') && summary.splitRecords === 0
        ? await wholeGraphInstead(options, here, summary, statements.count)
        : undefined;
    if (whole)
      return {
        ...whole,
        mode: { mode: 'graph', why: `record by record was not enough: ${scope.reasons[0]}` },
        elapsedMs: performance.now() - started,
      };
    summary.notExact.unshift(...scope.reasons);
  }
  timeline?.mark('end');
  // An empty input conforms (SHACL: no result); the summary says nothing was in it.
  return {
    ...runVerdict(summary, failOn),
    mode,
    summary,
    reportResults: report?.results ?? 0,
    jobs: validator ? jobs : 1,
    elapsedMs: performance.now() - started,
  };
}

/** What {@link validateFile} works with: the run's options, validator and the counters it adds to. */
interface FileRun {
  options: ValidateDumpOptions;
  here: (path: string) => string;
  validator: RecordValidating;
  jobs: number;
  window: number;
  summary: ValidationSummary;
  scope: ScopeCheck;
  /** The copies of shared nodes told so far in the run. */
  told: CopiesTold;
  report: ReportFile | undefined;
  progress: ProgressTicker;
  read: { bytes: number; total: number | null; file: string };
  /** The statements (triples or quads) validated so far: as many as the whole graph would hold. */
  statements: { count: number };
}

/** Validates one input record by record (cut into records as its format allows), adding to the run's counters. */
async function validateFile(file: string, index: number, run: FileRun): Promise<void> {
  const { options, here, validator, jobs, window, summary, scope, told, report, progress, read } = run;
  read.file = file;
  const readBefore = read.bytes;
  let counting = true;
  const opened = await openRdfFile(
    here(file),
    options.stdin,
    (bytes) => {
      if (!counting) return;
      read.bytes += bytes;
      progress.tick();
    },
    options.maxDocumentChars,
  );
  const source = file === '-' ? '<stdin>' : file;
  let input: RdfInput = opened.input;
  let format = options.format ? resolveFormat(options.format) : opened.format;
  if (format === undefined) ({ format, text: input } = await sniffRdf(input));
  const signal = options.signal;
  const streamOptions = {
    window,
    // Batches in flight are for workers: validated in this thread, a batch is done when it is sent (more would only be held).
    concurrency: validator instanceof ParallelRecordValidator ? jobs * 4 : 1,
    ...(signal ? { signal } : {}),
    onSplitRecord: () => summary.splitRecords++,
  };
  // Plain N-Triples or N-Quads files in workers: each reads, groups and validates its parts of the file itself.
  const parts =
    jobs > 1 &&
    !options.regroup &&
    !opened.gzip &&
    file !== '-' &&
    isLineFormat(format) &&
    validator instanceof ParallelRecordValidator;
  if (parts) {
    // The workers read the file: its bytes count as their parts are passed on, not as the stream opened here read them.
    counting = false;
    opened.input.destroy();
    read.bytes = readBefore;
  } else if (options.regroup || !isLineFormat(format)) input = decodeUtf8(input, opened.release); // each read given back once decoded
  // (N-Triples and N-Quads are given as bytes: they are decoded line by line, each read given back once decoded.)
  const outcomes = parts
    ? validateFileParts(here(file), validator as ParallelRecordValidator, {
        format: format as LineFormat,
        source,
        window,
        ...(signal ? { signal } : {}),
        ...(options.partBytes !== undefined ? { partBytes: options.partBytes } : {}),
        ...(options.maxDocumentChars !== undefined ? { maxDocumentChars: options.maxDocumentChars } : {}),
        onSplitRecord: () => summary.splitRecords++,
        onBytes: (bytes) => {
          read.bytes += bytes;
          progress.tick();
        },
      })
    : options.regroup
      ? validateRecordTexts(
          regroupRecords(regroupInput(input, format, source, signal, window, readLimitsOf(options)), {
            buckets: bucketsFor(file === '-' ? undefined : here(file)),
          }),
          validator,
          streamOptions,
        )
      : isLineFormat(format)
        ? // Cut into the lines of each record; parsed where validated (in the workers).
          validateNTriples(input, validator, {
            ...streamOptions,
            format,
            source,
            ...readLimitsOf(options),
            release: opened.release,
          })
        : validateStream(
            quadsOf(input, format, source, signal, readLimitsOf(options), blankNodeScope(index)),
            validator,
            streamOptions,
          );
  for await (const validated of outcomes) {
    const { key, outcome } = validated;
    run.statements.count += 'statements' in validated ? validated.statements : validated.quads.length;
    summary.add(key === undefined ? undefined : safeDecode(key), outcome);
    // Workers tell the copies of shared nodes once per request: told once per run here, in input order.
    scope.add(told.unseen(outcome.scope), key === undefined ? undefined : safeDecode(key));
    if (report && outcome.results.length) await report.write(outcome.results);
    progress.tick();
  }
  progress.flush();
}

/**
 * {@link validateDump} of the same inputs as one graph, its report written aside and put in place of the record by
 * record one only when it is complete. Undefined (and a line in `summary`) when the graph is too large.
 */
async function wholeGraphInstead(
  options: ValidateDumpOptions,
  here: (p: string) => string,
  summary: ValidationSummary,
  statements: number,
): Promise<ValidateDumpSummary | undefined> {
  const maxTriples = options.maxGraphTriples || MAX_GRAPH_TRIPLES;
  // The record by record run counted the statements the graph would hold: more than fit are not read again.
  if (statements > maxTriples) {
    summary.notExact.push(tooManyTriples(maxTriples));
    return undefined;
  }
  const reportPath = options.reportPath === undefined ? undefined : here(options.reportPath);
  const aside = reportPath === undefined ? undefined : `${reportPath}.graph-${process.pid}.tmp`;
  try {
    const whole = await validateDump({ ...options, mode: 'graph', ...(aside ? { reportPath: aside } : {}) });
    if (aside && reportPath) renameSync(aside, reportPath);
    return whole;
  } catch (err) {
    if (!(err instanceof ToolkitError && err.code === 'usage' && typeof err.details['maxTriples'] === 'number'))
      throw err;
    summary.notExact.push(tooManyTriples(err.details['maxTriples']));
    return undefined;
  }
}

/** The quads of every input, one after the other (graphs ignored): for validating them as one graph. */
async function* quadsOfFiles(
  files: readonly string[],
  here: (p: string) => string,
  options: ValidateDumpOptions,
): AsyncGenerator<RDF.Quad, void, undefined> {
  for (const [i, file] of files.entries()) {
    const opened = await openRdfFile(here(file), options.stdin);
    let input: RdfInput = opened.input;
    let format = options.format ? resolveFormat(options.format) : opened.format;
    if (format === undefined) ({ format, text: input } = await sniffRdf(input));
    const source = file === '-' ? '<stdin>' : file;
    yield* quadsOf(input, format, source, options.signal, readLimitsOf(options), blankNodeScope(i));
  }
}

/**
 * The scope of the blank nodes of the input at `index` (from 0) parsed in this thread: `_:x` of the first input is
 * `g1:x`, whatever the thread parsed before, so that a report is the same with workers or without. (N-Triples and
 * N-Quads validated record by record keep their labels as written: `parseRecordText`.)
 */
function blankNodeScope(index: number): string {
  return `g${index + 1}`;
}

/** Why the whole graph was not validated instead of record by record. */
function tooManyTriples(max: number): string {
  return `the whole graph holds more than ${max} triples, too many to validate it in memory instead`;
}

/** Temporary files for regrouping: one per 16 MiB of (uncompressed, estimated) input, 16 to 1,024; 256 for stdin. */
function bucketsFor(path: string | undefined): number {
  if (path === undefined) return 256;
  const bytes = estimatedTextBytes([path]);
  return Math.min(1024, Math.max(16, Math.ceil(bytes / (16 * 2 ** 20))));
}

/** From this size of text on, worker threads pay for their start (about a third of a second) many times over. */
const AUTO_JOBS_BYTES = 16 * 2 ** 20;

function safeDecode(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** A handler of a failure that stops the workers, then fails with the same error. */
function closing(parallel: ParallelRecordValidator | undefined): (err: unknown) => Promise<never> {
  return async (err) => {
    await parallel?.close();
    throw err;
  };
}
