import type { Command } from 'commander';
import { Option } from 'commander';
import { type ConvertSummary, convertSummaryLine } from '../../convert/ConvertStats.js';
import { ToolkitError } from '../../errors.js';
import { FORMATS, parseFormatName } from '../../formats.js';
import { oneLine } from '../../pipeline/Rejection.js';
import type { CliContext } from '../CliContext.js';
import { RejectsReport } from '../RejectsReport.js';
import { inFlags } from '../inFlags.js';
import { type ReadLimitFlags, addReadLimitOptions, readLimitsFromFlags } from '../readLimitOptions.js';
import { int } from '../connection.js';

interface ConvertCliOptions extends ReadLimitFlags {
  format?: string;
  output?: string;
  rejects?: string;
  base?: string;
  schemaHttps?: boolean;
  graph?: string;
  graphPerRecord?: boolean;
  jsonldContext?: string;
  strict?: boolean;
  notes?: string;
  validate?: boolean;
  shapes?: string;
  quiet?: boolean;
  json?: boolean;
  shardRecords?: number;
  shardSize?: number;
  jobs?: number;
}

/** `scholarly-rdf convert INPUT...`: records (files of the service's JSON) to RDF. */
export function registerConvert(program: Command, ctx: CliContext): void {
  const command = program
    .command('convert')
    .summary('map records (JSON of the service) to RDF')
    .description(
      'Map records to schema.org + BIBO triples and write them as RDF, record by record.\n' +
        'INPUT: files of the service\'s JSON (a /meta/v2/ or /metadata/v1/ envelope, a record, an array, or\n' +
        'newline-delimited JSON), or RDF documents in any of the five formats (re-serialised as they are, as riot does),\n' +
        'optionally .gz; "-" reads standard input.\n' +
        'Exit codes: 0 all records written; 1 some records rejected (see --rejects); 2 bad usage; 4 unreadable input.',
    )
    .argument('<input...>', 'input files, or - for standard input')
    .addOption(new Option('-f, --format <format>', 'output format (default: from the -o extension, else turtle)').choices([...FORMATS.map((f) => f.format), 'ttl', 'nt', 'nq', 'json-ld', 'n-triples', 'n-quads', 'rdf']))
    .option('-o, --output <file>', 'output file (.ttl .nt .nq .jsonld .rdf, optionally .gz); default standard output')
    .option('--rejects <file>', 'write rejected records as JSON lines with the reason (default: <output>.rejects.jsonl when -o is given)')
    .option('--base <iri>', 'base of the IRIs minted for authors, journals, ... (default https://w3id.org/scholarly-rdf/)')
    .option('--schema-https', 'use https://schema.org/ instead of http://schema.org/')
    .option('--graph <iri>', 'N-Quads: the graph to put the triples in')
    .option('--graph-per-record', 'N-Quads or JSON-LD: put each record in its own named graph <base>record/<doi>, so a store can replace one record as a whole')
    .option('--jsonld-context <url>', 'JSON-LD: reference the context by this URL instead of embedding it')
    .option('--notes <file>', 'write the notes of each written record (what was changed or left out, and why) as JSON lines')
    .option('--validate', 'check every record against the SHACL shapes; records that do not conform go to the rejects, not the output')
    .option('--shapes <dir>', 'with --validate: shapes of your own instead of the shipped ones')
    .option('--shard-records <n>', 'cut the output into shards of at most N records, each a whole document: -o dump.nq.gz writes dump.00001.nq.gz, dump.00002.nq.gz, ... and dump.manifest.json (needs -o; see docs/shards.md)', int('--shard-records', 1))
    .option('--shard-size <bytes>', 'cut the output into shards of at most this much text before compression (a number of bytes, or with K, M or G: 512M); with --shard-records, whichever comes first (needs -o)', byteSize('--shard-size'))
    .option('-j, --jobs <n>', 'map and write records in N worker threads (at most one per CPU core; the output is the same byte for byte); not with --validate or shards (default: 1)', int('--jobs', 1))
    .option('--strict', 'stop at the first rejected record')
    .option('-q, --quiet', 'no summary on standard error')
    .option('--json', 'at the end, print the summary as one line of JSON (counts, paths, timings): on stdout with -o FILE, else on stderr');
  addReadLimitOptions(command).action(async (inputs: string[], opts: ConvertCliOptions) => {
    await convertCommand(inputs, opts, ctx);
  });
}

async function convertCommand(inputs: string[], opts: ConvertCliOptions, ctx: CliContext): Promise<void> {
  const rejects = new RejectsReport(ctx);
  const toFile = opts.output !== undefined && opts.output !== '-';
  if (!toFile && (opts.shardRecords !== undefined || opts.shardSize !== undefined)) {
    throw new ToolkitError(`${opts.shardRecords !== undefined ? '--shard-records' : '--shard-size'} needs -o FILE: the shards are files named after it (-o dump.nt.gz writes dump.00001.nt.gz, ...); standard output cannot be cut into files`, 'usage');
  }
  if (opts.json) ctx.json.enable('convert', toFile ? 'stdout' : 'stderr');
  const started = performance.now();
  let summary: ConvertSummary;
  try {
    summary = await (await import('../../tasks/convertFiles.js')).convertFiles({
      inputs,
      stdin: ctx.io.stdin,
      ...(toFile ? { output: opts.output } : { stream: ctx.io.stdout }),
      ...(opts.format ? { format: parseFormatName(opts.format) } : {}),
      ...(opts.rejects ? { rejectsPath: opts.rejects } : {}),
      ...(opts.notes ? { notesPath: opts.notes } : {}),
      ...(opts.base !== undefined ? { base: opts.base } : {}),
      schemaScheme: opts.schemaHttps ? 'https' : 'http',
      ...(opts.graph !== undefined ? { graph: opts.graph } : {}),
      ...(opts.graphPerRecord ? { graphPerRecord: true } : {}),
      ...(opts.jsonldContext ? { jsonldContext: opts.jsonldContext } : {}),
      ...(opts.validate ? { validate: true } : {}),
      ...(opts.shapes !== undefined ? { shapesDir: opts.shapes } : {}),
      ...(opts.strict ? { strict: true } : {}),
      ...(opts.shardRecords !== undefined ? { shardRecords: opts.shardRecords } : {}),
      ...(opts.shardSize !== undefined ? { shardBytes: opts.shardSize } : {}),
      ...(opts.jobs !== undefined ? { jobs: opts.jobs } : {}),
      ...readLimitsFromFlags(opts),
      signal: ctx.signal,
      onRejected: (r) => rejects.add(r),
      onWarning: (w) => ctx.log(`convert: ${inFlags(w)}`),
    });
  } catch (err) {
    if (toFile && !(err instanceof ToolkitError && err.code === 'usage')) ctx.log(`convert: stopped; nothing was written to ${opts.output} (no partial output is kept)`);
    throw err;
  }
  if (!opts.quiet) {
    const wrote = summary.manifestPath ? `; wrote the shards listed in ${summary.manifestPath} (${summary.format})` : summary.output ? `; wrote ${summary.output} (${summary.format})` : '';
    ctx.log(oneLine(`convert: ${convertSummaryLine(summary)}${wrote}`, 2000));
    if (summary.notes > 0) ctx.log(opts.notes ? `notes: in ${opts.notes}` : 'notes: what was changed or left out in written records; --notes FILE lists them');
  }
  rejects.report(summary.rejectsPath ?? (opts.rejects && summary.rejected > 0 ? opts.rejects : undefined));
  if (summary.rejected > 0) ctx.setExitCode(1);
  ctx.json.set({ inputs, ...summary, elapsedMs: Math.round(performance.now() - started) });
}

/** Parses a size in bytes: a whole number, or one with K, M or G (times 1024, 1024², 1024³): `512M`. */
export function byteSize(name: string) {
  return (value: string): number => {
    const m = /^\s*(\d+)\s*([KMG]i?B?)?\s*$/i.exec(value);
    const n = m ? Number(m[1]) * 1024 ** (m[2] ? 'KMG'.indexOf(m[2][0]!.toUpperCase()) + 1 : 0) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new ToolkitError(`${name} must be a number of bytes of at least 1 (or with K, M or G: 512M), got "${value}"`, 'usage');
    return n;
  };
}
