import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ToolkitError, exitCodeFor } from '../../errors.js';
import { FORMATS, extensionList } from '../../formats.js';
import type { resultToJson } from '../../shacl/createRecordValidator.js';
import type { ValidateDumpOptions, ValidateDumpSummary } from '../../tasks/validateDump.js';
import type { CliContext } from '../CliContext.js';
import { inFlags } from '../inFlags.js';
import { libraryOptions } from '../options/CliOption.js';
import { OPTION_TABLE, addCommandOptions } from '../options/optionTable.js';
import { validateProgressReporter } from '../progress/validateProgressReporter.js';
import type { ReadLimitFlags } from '../readLimitOptions.js';
import { printable } from '../printable.js';

interface ValidateCliOptions extends ReadLimitFlags {
  report?: string;
  quiet?: boolean;
  json?: boolean;
}

/** `scholarly-rdf validate FILE...`: checks dumps against the SHACL shapes, record by record. */
export function registerValidate(program: Command, ctx: CliContext): void {
  const command = program
    .command('validate')
    .description(
      `check RDF dumps (any of the ${FORMATS.length} formats, .gz too, - for stdin) against the SHACL shapes, record by record; exit 1 when a record does not conform`,
    )
    .argument('<file...>', `RDF files (${extensionList()}, optionally .gz), or - for stdin`);
  addCommandOptions(command, 'validate', (line) => ctx.log(line)).action(
    async (files: string[], opts: ValidateCliOptions) => {
      if (opts.json) ctx.json.enable('validate', 'stdout');
      const progress = opts.quiet ? undefined : validateProgressReporter(ctx);
      let result: ValidateDumpSummary;
      try {
        result = await (
          await import('../../tasks/validateDump.js')
        ).validateDump({
          files,
          stdin: ctx.io.stdin,
          cwd: ctx.io.cwd,
          ...(libraryOptions(OPTION_TABLE.validate, opts, ctx.io.cwd) as Omit<ValidateDumpOptions, 'files'>),
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
      if (!opts.quiet)
        ctx.log(
          inFlags(
            `validated ${result.mode.mode === 'record' ? 'record by record' : 'as one graph in memory'}: ${result.mode.why}`,
          ),
        );
      if (opts.json) {
        const { resultToJson } = await import('../../shacl/createRecordValidator.js');
        ctx.json.set(
          validateSummaryJson(
            result,
            files,
            opts.report === undefined ? null : resolve(ctx.io.cwd, opts.report),
            resultToJson,
          ),
        );
      } else {
        const lines = result.summary.toLines().map(inFlags);
        ctx.io.stdout.write(printable(`${(opts.quiet ? lines.slice(0, 1) : lines).join('\n')}\n`));
      }
      if (opts.report) ctx.log(`report: ${opts.report} (${result.reportResults} result(s))`);
    },
  );
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
