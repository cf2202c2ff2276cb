import type { Command } from 'commander';
import { conflictLines } from '../conflictLines.js';
import { type ConvertSummary, convertSummaryLine } from '../../pipeline/ConvertStats.js';
import { ToolkitError } from '../../errors.js';
import { FORMATS } from '../../formats.js';
import type { ConvertFilesOptions } from '../../tasks/convertFiles.js';
import { oneLine } from '../../pipeline/Rejection.js';
import type { CliContext } from '../CliContext.js';
import { RejectsReport } from '../RejectsReport.js';
import { convertProgressReporter } from '../progress/convertProgressReporter.js';
import { inFlags } from '../inFlags.js';
import type { ReadLimitFlags } from '../readLimitOptions.js';
import { libraryOptions } from '../options/CliOption.js';
import { OPTION_TABLE, addCommandOptions } from '../options/optionTable.js';

interface ConvertCliOptions extends ReadLimitFlags {
  output?: string;
  rejects?: string;
  notes?: string;
  quiet?: boolean;
  json?: boolean;
  shardRecords?: number;
  shardSize?: number;
}

/** `scholarly-rdf convert INPUT...`: records (files of the service's JSON) to RDF. */
export function registerConvert(program: Command, ctx: CliContext): void {
  const command = program
    .command('convert')
    .summary('map records (JSON of the service) to RDF')
    .description(
      'Map records to schema.org + BIBO triples and write them as RDF, record by record.\n' +
        "INPUT: files of the service's JSON (a /meta/v2/ or /metadata/v1/ envelope, a record, an array, or\n" +
        `newline-delimited JSON), or RDF documents in any of the ${FORMATS.length} formats (re-serialised as they are, as riot does),\n` +
        'optionally .gz; "-" reads standard input.',
    )
    .argument('<input...>', 'input files, or - for standard input');
  addCommandOptions(command, 'convert', (line) => ctx.log(line)).action(
    async (inputs: string[], opts: ConvertCliOptions) => {
      await convertCommand(inputs, opts, ctx);
    },
  );
}

async function convertCommand(inputs: string[], opts: ConvertCliOptions, ctx: CliContext): Promise<void> {
  const rejects = new RejectsReport(ctx);
  const toFile = opts.output !== undefined && opts.output !== '-';
  if (!toFile && (opts.shardRecords !== undefined || opts.shardSize !== undefined)) {
    throw new ToolkitError(
      `${opts.shardRecords !== undefined ? '--shard-records' : '--shard-size'} needs -o FILE: the shards are files named after it (-o dump.nt.gz writes dump.00001.nt.gz, ...); standard output cannot be cut into files`,
      'usage',
    );
  }
  if (opts.json) ctx.json.enable('convert', toFile ? 'stdout' : 'stderr');
  const started = performance.now();
  const options = libraryOptions(OPTION_TABLE.convert, opts, ctx.io.cwd) as Omit<ConvertFilesOptions, 'inputs'>;
  if (!toFile) delete options.output;
  const progress = opts.quiet ? undefined : convertProgressReporter(ctx);
  let summary: ConvertSummary;
  try {
    summary = await (
      await import('../../tasks/convertFiles.js')
    ).convertFiles({
      inputs,
      stdin: ctx.io.stdin,
      ...options,
      ...(toFile ? {} : { stream: ctx.io.stdout }),
      signal: ctx.signal,
      onRejected: (r) => rejects.add(r),
      onWarning: (w) => ctx.log(`convert: ${inFlags(w)}`),
      ...(progress ? { onProgress: progress.onProgress } : {}),
    });
  } catch (err) {
    if (toFile && !(err instanceof ToolkitError && err.code === 'usage'))
      ctx.log(`convert: stopped; nothing was written to ${opts.output} (no partial output is kept)`);
    throw err;
  }
  progress?.end();
  if (!opts.quiet) {
    const wrote = summary.manifestPath
      ? `; wrote the shards listed in ${summary.manifestPath} (${summary.format})`
      : summary.output
        ? `; wrote ${summary.output} (${summary.format})`
        : '';
    ctx.log(oneLine(`convert: ${convertSummaryLine(summary)}${wrote}`, 2000));
    const more = opts.notes ? ` in ${opts.notes}` : '; --notes FILE lists them all';
    for (const line of conflictLines('convert', summary, more)) ctx.log(line);
    if (summary.notes > 0)
      ctx.log(
        opts.notes
          ? `notes: in ${opts.notes}`
          : 'notes: what was changed or left out in written records; --notes FILE lists them',
      );
  }
  rejects.report(summary.rejectsPath ?? (opts.rejects && summary.rejected > 0 ? opts.rejects : undefined));
  if (summary.rejected > 0) ctx.setExitCode(1);
  ctx.json.set({ inputs, ...summary, elapsedMs: Math.round(performance.now() - started) });
}
