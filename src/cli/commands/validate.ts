import type { Command } from 'commander';
import { ToolkitError, exitCodeFor } from '../../errors.js';
import { type ValidateDumpSummary, validateDump } from '../../tasks/validateDump.js';
import type { CliContext } from '../CliContext.js';
import { inFlags } from '../inFlags.js';
import { nonNegativeInteger, positiveInteger } from '../optionValues.js';

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
      const jobs = opts.jobs === undefined || opts.jobs === 'auto' ? opts.jobs : positiveInteger('--jobs', opts.jobs, 'or auto');
      let result: ValidateDumpSummary;
      try {
        result = await validateDump({
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
          signal: ctx.signal,
          onWorkers: (n) => ctx.log(`validating in ${n} worker threads`),
        });
      } catch (err) {
        const records = err instanceof ToolkitError ? err.details['records'] : undefined;
        if (typeof records === 'number' && (records > 0 || opts.report)) {
          const done = `${records} record(s) validated before it (${String(err instanceof ToolkitError ? err.details['notConforming'] : 0)} not conforming)`;
          ctx.log(`validation stopped: ${done}${opts.report ? `; no report written to ${opts.report}` : ''}`);
        }
        throw err;
      }
      const lines = result.summary.toLines().map(inFlags);
      ctx.io.stdout.write(`${(opts.quiet ? lines.slice(0, 1) : lines).join('\n')}\n`);
      if (opts.report) ctx.log(`report: ${opts.report} (${result.reportResults} result(s))`);
      if (!result.conforms) ctx.setExitCode(exitCodeFor('validation-failed'));
    });
}
