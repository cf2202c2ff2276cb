import { detectSchemaScheme } from '../../shacl/detectSchemaScheme.js';
import type * as RDF from '@rdfjs/types';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { nonNegativeInteger, positiveInteger } from '../optionValues.js';
import { ToolkitError, exitCodeFor } from '../../errors.js';
import { openRdfFile } from '../../parse/openRdfFile.js';
import { parseRdf, resolveFormat, sniffRdf } from '../../parse/parseRdf.js';
import type { RdfInput } from '../../parse/parseRdf.js';
import type { FormatName } from '../../serialize/QuadSerializer.js';
import { ParallelRecordValidator } from '../../shacl/ParallelRecordValidator.js';
import type { RecordValidating } from '../../shacl/ParallelRecordValidator.js';
import { RecordValidator } from '../../shacl/RecordValidator.js';
import { availableParallelism } from 'node:os';
import { ValidationReportWriter } from '../../shacl/ValidationReportWriter.js';
import { ValidationSummary } from '../../shacl/ValidationSummary.js';
import { recordTextsOf, validateNTriples, validateRecordTexts, validateStream } from '../../shacl/validateStream.js';
import { regroupRecords } from '../../shacl/regroupRecords.js';
import { groupNTriplesRecords } from '../../shacl/groupNTriplesRecords.js';
import type { NTriplesRecordGroup } from '../../shacl/groupNTriplesRecords.js';
import { groupRecords } from '../../shacl/groupRecords.js';
import { decodeUtf8 } from '../../parse/decodeUtf8.js';

interface ValidateCliOptions {
  shapes?: string;
  report?: string;
  format?: string;
  examples: string;
  window: string;
  jobs?: string;
  regroup?: boolean;
  quiet?: boolean;
}

/** `scholarly-rdf validate FILE...`: checks dumps against the SHACL shapes, record by record. */
export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check RDF dumps (any of the five formats, .gz too, - for stdin) against the SHACL shapes, record by record; exit 1 when a record does not conform')
    .argument('<file...>', 'RDF files (.ttl .nt .nq .jsonld .rdf, optionally .gz), or - for stdin')
    .option('--shapes <dir>', 'directory (or file) of SHACL shapes in Turtle (default: the shipped shapes/)')
    .option('--report <file>', 'write the full SHACL validation report (sh:ValidationReport) in Turtle to this file')
    .option('-f, --format <format>', 'format of the inputs (default: from the file extension, else sniffed)')
    .option('--examples <n>', 'how many example violations the summary shows', '5')
    .option('--window <n>', 'records that may be open at once (a record is complete when this many newer ones started)', '4')
    .option(
      '-j, --jobs <n>',
      'validate in N worker threads (auto: one per CPU core, at most 8); 1 validates in the main thread (default: auto for inputs of 16 MiB or more, else 1)',
    )
    .option(
      '--regroup',
      'for dumps whose records are not together (sorted by subject, exported from a store): bring each record\'s quads together first, through temporary files (two passes; memory about 1/64 of the input or less)',
    )
    .option('-q, --quiet', 'print only the first summary line')
    .action(async (files: string[], opts: ValidateCliOptions) => {
      const { io } = ctx;
      const maxExamples = nonNegativeInteger('--examples', opts.examples);
      const window = positiveInteger('--window', opts.window);
      if (files.filter((f) => f === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
      const here = (p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));
      const jobsOption = opts.jobs ?? (inputBytes(files.map((f) => (f === '-' ? f : here(f)))) >= AUTO_JOBS_BYTES ? 'auto' : '1');
      const jobs = jobsOption === 'auto' ? Math.min(8, availableParallelism()) : positiveInteger('--jobs', jobsOption, 'or auto');
      // A dump written with --schema-https is checked against the same shapes, their schema.org IRIs rewritten.
      const firstFile = files.find((f) => f !== '-');
      const schemaScheme = firstFile === undefined ? 'http' : await detectSchemaScheme(here(firstFile));
      const shapesOptions = { ...(opts.shapes ? { shapesDir: here(opts.shapes) } : {}), schemaScheme };
      const parallel = jobs > 1 ? await ParallelRecordValidator.create({ ...shapesOptions, workers: jobs }) : undefined;
      if (parallel) ctx.log(`validating in ${jobs} worker threads`);
      const validator: RecordValidating = parallel ?? (await RecordValidator.create(shapesOptions));
      const summary = new ValidationSummary({ maxExamples });

      let report: WriteStream | undefined;
      let reportWriter: ValidationReportWriter | undefined;
      if (opts.report) {
        report = createWriteStream(here(opts.report));
        reportWriter = new ValidationReportWriter();
        report.write(reportWriter.start());
      }
      const writeReport = async (text: string) => {
        if (!report || !text) return;
        if (!report.write(text)) {
          await new Promise<void>((ok, fail) => {
            const drained = () => {
              report!.off('error', failed);
              ok();
            };
            const failed = (err: Error) => {
              report!.off('drain', drained);
              fail(err);
            };
            report!.once('drain', drained);
            report!.once('error', failed);
          });
        }
      };

      let stopped = true;
      try {
        for (const file of files) {
          const opened = await openRdfFile(file === '-' ? '-' : here(file), io.stdin);
          const source = file === '-' ? '<stdin>' : file;
          let input: RdfInput = opened.input;
          let format = opts.format ? resolveFormat(opts.format) : opened.format;
          if (format === undefined) ({ format, text: input } = await sniffRdf(input));
          const streamOptions = { window, concurrency: jobs * 4, signal: ctx.signal, onSplitRecord: () => summary.splitRecords++ };
          const outcomes = opts.regroup
            ? validateRecordTexts(regroupRecords(regroupInput(input, format, source, ctx.signal, window), { buckets: bucketsFor(file === '-' ? undefined : here(file)) }), validator, streamOptions)
            : format === 'ntriples' || format === 'nquads'
              ? // Cut into the lines of each record; parsed where validated (in the workers).
                validateNTriples(input, validator, { ...streamOptions, format, source })
              : validateStream(quadsOf(input, format, source, ctx.signal), validator, streamOptions);
          for await (const { key, outcome } of outcomes) {
            summary.add(key === undefined ? undefined : safeDecode(key), outcome);
            if (reportWriter && outcome.results.length) await writeReport(reportWriter.write(outcome.results));
          }
        }
        stopped = false;
      } finally {
        await parallel?.close();
        if (report && reportWriter && !stopped) {
          report.end(reportWriter.end());
          await finished(report).catch((err: Error) => {
            throw new ToolkitError(`cannot write the report ${opts.report}: ${err.message}`, 'io', { cause: err });
          });
        } else if (report) {
          // A report of part of the input would say that the rest conforms: none is left.
          report.destroy();
          await finished(report).catch(() => undefined);
          rmSync(here(opts.report!), { force: true });
        }
        if (stopped && (summary.records > 0 || report)) {
          const done = `${summary.records} record(s) validated before it (${summary.records - summary.conforming} not conforming)`;
          ctx.log(`validation stopped: ${done}${report ? `; no report written to ${opts.report}` : ''}`);
        }
      }

      const lines = summary.toLines();
      io.stdout.write(`${(opts.quiet ? lines.slice(0, 1) : lines).join('\n')}\n`);
      if (opts.report) ctx.log(`report: ${opts.report} (${reportWriter?.results ?? 0} result(s))`);
      // An empty input (or one the parser read as nothing) is no proof of conformance.
      if (!summary.conforms || summary.records + summary.otherGroups === 0) ctx.setExitCode(exitCodeFor('validation-failed'));
    });
}

/** The groups of an input for {@link regroupRecords}: N-Triples lines as read, other formats as N-Triples of their quads. */
function regroupInput(input: RdfInput, format: FormatName | undefined, source: string, signal: AbortSignal, window: number): AsyncIterable<NTriplesRecordGroup> {
  if (format === 'ntriples' || format === 'nquads') return groupNTriplesRecords(decodeUtf8(input), { format, source, window, keepBlankOwners: true });
  return recordTextsOf(groupRecords(quadsOf(input, format, source, signal), { window, keepBlankOwners: true }), source);
}

/** The quads of an input as validate reads them: graphs ignored (so JSON-LD dumps stream). */
function quadsOf(input: RdfInput, format: FormatName | undefined, source: string, signal: AbortSignal): AsyncIterable<RDF.Quad> {
  return parseRdf(input, { format, source, signal, ignoreGraphs: true, strict: true });
}

/** Temporary files for --regroup: one per 16 MiB of (uncompressed, estimated) input, 16 to 1,024; 256 for stdin. */
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
