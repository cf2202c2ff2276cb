import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ToolkitError, exitCodeFor } from '../../errors.js';
import type { resultToJson } from '../../shacl/createRecordValidator.js';
import type { ValidateDumpSummary } from '../../tasks/validateDump.js';
import type { CliContext } from '../CliContext.js';
import { inFlags } from '../inFlags.js';
import { nonNegativeInteger, positiveInteger } from '../optionValues.js';
import { validateProgressReporter } from '../progress/validateProgressReporter.js';
import { type ReadLimitFlags, addReadLimitOptions, readLimitsFromFlags } from '../readLimitOptions.js';
import { printable } from '../printable.js';

interface ValidateCliOptions extends ReadLimitFlags {
  shapes?: string;
  report?: string;
  format?: string;
  examples: string;
  window: string;
  jobs?: string;
  regroup?: boolean;
  ignoreExportLock?: boolean;
  quiet?: boolean;
  json?: boolean;
  mode?: string;
  failOn?: string;
  maxGraphTriples?: string;
}

/** `scholarly-rdf validate FILE...`: checks dumps against the SHACL shapes, record by record. */
export function registerValidate(program: Command, ctx: CliContext): void {
  const command = program
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
      'validate in N worker threads (auto: one per CPU core, at most 8); 1 validates in the main thread (default: auto for inputs of 16 MiB of text or more, a .gz file\'s estimated, else 1)',
    )
    .option('--ignore-export-lock', 'validate a dump even while an export is still writing it (its lock is held): the result describes part of it')
    .option(
      '--regroup',
      'for dumps whose records are not together (sorted by subject, exported from a store): bring each record\'s quads together first, through temporary files (two passes; memory about 1/64 of the input or less)',
    )
    .option(
      '--mode <mode>',
      'auto: record by record when the shapes read nothing beyond a record and each record holds what they read, else the whole input as one graph in memory (at most --max-graph-triples); record: each record alone (flat memory; results may differ from SHACL on the whole graph); graph: the whole graph',
      'auto',
    )
    .option('--max-graph-triples <n>', 'the most triples validating as one graph may hold in memory (about 2.4 KB each)', '500000')
    .option('--fail-on <severity>', 'exit 1 on results of this severity or worse: violation, warning or info (results of a severity of the shapes\' own always fail)', 'violation')
    .option('-q, --quiet', 'no progress; print only the first summary line')
    .option('--json', 'print the summary as one line of JSON on stdout instead of its text (counts by shape, examples, the report, timings)');
  addReadLimitOptions(command).action(async (files: string[], opts: ValidateCliOptions) => {
    if (opts.json) ctx.json.enable('validate', 'stdout');
    const jobs = opts.jobs === undefined || opts.jobs === 'auto' ? opts.jobs : positiveInteger('--jobs', opts.jobs, 'or auto');
    const progress = opts.quiet ? undefined : validateProgressReporter(ctx);
    let result: ValidateDumpSummary;
    try {
      result = await (await import('../../tasks/validateDump.js')).validateDump({
        files,
        stdin: ctx.io.stdin,
        cwd: ctx.io.cwd,
        ...(opts.shapes ? { shapesDir: opts.shapes } : {}),
        ...(opts.report ? { reportPath: opts.report } : {}),
        ...(opts.format ? { format: opts.format } : {}),
        maxExamples: nonNegativeInteger('--examples', opts.examples),
        window: positiveInteger('--window', opts.window),
        ...(jobs !== undefined ? { jobs } : {}),
        ...(opts.regroup ? { regroup: true } : {}),
        ...(opts.ignoreExportLock ? { ignoreExportLock: true } : {}),
        ...readLimitsFromFlags(opts),
        mode: opts.mode as 'auto',
        failOn: opts.failOn as 'violation',
        maxGraphTriples: positiveInteger('--max-graph-triples', opts.maxGraphTriples ?? '500000'),
        signal: ctx.signal,
        onWorkers: (n) => ctx.log(`validating in ${n} worker threads`),
        ...(progress ? { onProgress: progress.onProgress } : {}),
      });
    } catch (err) {
      const records = err instanceof ToolkitError ? err.details['records'] : undefined;
      if (typeof records === 'number' && (records > 0 || opts.report)) {
        const done = `${records} record(s) validated before it (${String(err instanceof ToolkitError ? err.details['notConforming'] : 0)} not conforming)`;
        ctx.log(`validation stopped: ${done}${opts.report ? `; no report written to ${opts.report}` : ''}`);
      }
      throw err;
    }
    progress?.end();
    if (result.failed) ctx.setExitCode(exitCodeFor('validation-failed'));
    if (!opts.quiet) ctx.log(inFlags(`validated ${result.mode.mode === 'record' ? 'record by record' : 'as one graph in memory'}: ${result.mode.why}`));
    if (opts.json) {
      const { resultToJson } = await import('../../shacl/createRecordValidator.js');
      ctx.json.set(validateSummaryJson(result, files, opts.report === undefined ? null : resolve(ctx.io.cwd, opts.report), resultToJson));
    } else {
      const lines = result.summary.toLines().map(inFlags);
      ctx.io.stdout.write(printable(`${(opts.quiet ? lines.slice(0, 1) : lines).join('\n')}\n`));
    }
    if (opts.report) ctx.log(`report: ${opts.report} (${result.reportResults} result(s))`);
  });
}

/** The `--json` object of a validation: the counts of its summary, by shape, its examples, the report and the time taken. */
export function validateSummaryJson(
  result: ValidateDumpSummary,
  files: readonly string[],
  reportPath: string | null,
  toJson: typeof resultToJson,
): Record<string, unknown> {
  const s = result.summary;
  return {
    files,
    conforms: result.conforms,
    failed: result.failed,
    severities: result.severities,
    mode: result.mode,
    records: s.records,
    conforming: s.conforming,
    notConforming: s.records - s.conforming,
    withWarningsOnly: s.withWarningsOnly,
    otherGroups: s.otherGroups,
    otherConforms: s.otherConforms,
    violations: s.violations,
    warnings: s.warnings,
    infos: s.infos,
    others: s.others,
    splitRecords: s.splitRecords,
    byShape: s.byShape(),
    examples: s.examples.map((e) => ({ record: e.record, ...toJson(e.result) })),
    reportPath,
    reportResults: result.reportResults,
    jobs: result.jobs,
    elapsedMs: Math.round(result.elapsedMs),
  };
}
