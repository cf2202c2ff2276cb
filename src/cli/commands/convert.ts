import type { Command } from 'commander';
import { Option } from 'commander';
import { type ConvertItemOptions, type ConvertOutcome, type Rejection, convertItem } from '../../convert/convertItem.js';
import { DoiSet } from '../../client/DoiSet.js';
import { ConvertStats } from '../../convert/ConvertStats.js';
import { GuardedWriter } from '../../convert/GuardedWriter.js';
import { type Output, openOutput } from '../../convert/openOutput.js';
import { ToolkitError } from '../../errors.js';
import { FORMATS, formatFromPath, formatInfo, parseFormatName } from '../../formats.js';
import type { MappedRecord } from '../../mapping/mapRecord.js';
import { NS } from '../../mapping/namespaces.js';
import { openRdfFile } from '../../parse/openRdfFile.js';
import { readRecords } from '../../record/readRecords.js';
import type { ReadItem } from '../../record/readRecords.js';
import { DEFAULT_PREFIXES } from '../../serialize/prefixes.js';
import type { FormatName, SerializerOptions } from '../../serialize/QuadSerializer.js';
import { escapeResolvedIri } from '../../serialize/escape.js';
import { serializerFor } from '../../serialize/serializers.js';
import { writeRecords } from '../../serialize/writeRecords.js';
import { createRecordValidator, describeResult, violationsToJson } from '../../shacl/createRecordValidator.js';
import type { CliContext } from '../CliContext.js';
import { NotesReport } from '../NotesReport.js';
import { RejectsReport, describeRejection, oneLine } from '../RejectsReport.js';

interface ConvertCliOptions {
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
}

/** `scholarly-rdf convert INPUT...`: records (files of the service's JSON) to RDF. */
export function registerConvert(program: Command, ctx: CliContext): void {
  program
    .command('convert')
    .summary('map records (JSON of the service) to RDF')
    .description(
      'Map records to schema.org + BIBO triples and write them as RDF, record by record.\n' +
        'INPUT: files of the service\'s JSON (a /meta/v2/ or /metadata/v1/ envelope, a record, an array, or\n' +
        'newline-delimited JSON), optionally .gz; "-" reads standard input.\n' +
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
    .option('--strict', 'stop at the first rejected record')
    .option('-q, --quiet', 'no summary on standard error')
    .action(async (inputs: string[], opts: ConvertCliOptions) => {
      await convertCommand(inputs, opts, ctx);
    });
}

async function convertCommand(inputs: string[], opts: ConvertCliOptions, ctx: CliContext): Promise<void> {
  const format: FormatName = opts.format
    ? parseFormatName(opts.format)
    : (opts.output && opts.output !== '-' ? formatFromPath(opts.output) : undefined) ?? 'turtle';
  if (opts.graph !== undefined) checkIriOption('--graph', opts.graph);
  if (opts.graphPerRecord && opts.graph !== undefined) throw new ToolkitError('--graph (one graph for all records) and --graph-per-record (a graph for each) do not go together', 'usage');
  if (opts.graph !== undefined && format !== 'nquads') throw new ToolkitError(`--graph needs N-Quads output (-f nquads or -o FILE.nq), not ${format}`, 'usage');
  if (opts.graphPerRecord && format !== 'nquads' && format !== 'jsonld') {
    throw new ToolkitError(`--graph-per-record needs N-Quads or JSON-LD output (-f nquads|jsonld, or -o FILE.nq|FILE.jsonld), not ${formatInfo(format).label}, which has no named graphs`, 'usage');
  }
  if (opts.shapes !== undefined && !opts.validate) throw new ToolkitError('--shapes goes with --validate', 'usage');
  const fromPath = opts.output && opts.output !== '-' ? formatFromPath(opts.output) : undefined;
  if (opts.format && fromPath && fromPath !== format) ctx.log(`convert: writing ${formatInfo(format).label} to ${opts.output}, whose name says ${formatInfo(fromPath).label} (-f wins)`);
  // The base starts every IRI minted for a record: a bad one would make every record unwritable.
  if (opts.base !== undefined) checkIriOption('--base', opts.base);
  if (inputs.filter((i) => i === '-').length > 1) throw new ToolkitError('standard input (-) can be read only once', 'usage');
  const mapOptions: ConvertItemOptions = {
    ...(opts.base ? { base: opts.base } : {}),
    schemaScheme: opts.schemaHttps ? 'https' : 'http',
    ...(opts.graphPerRecord ? { graphPerRecord: true } : {}),
  };
  const serializerOptions: SerializerOptions = {
    prefixes: opts.schemaHttps ? { ...DEFAULT_PREFIXES, schema: NS.schemaHttps } : DEFAULT_PREFIXES,
    ...(opts.graph ? { graph: opts.graph } : {}),
    ...(opts.jsonldContext ? { jsonldContext: opts.jsonldContext } : {}),
  };
  const stats = new ConvertStats();
  const rejectsPath = opts.rejects ?? (opts.output && opts.output !== '-' ? `${opts.output.replace(/\.gz$/i, '')}.rejects.jsonl` : undefined);
  const rejects = new RejectsReport(rejectsPath, ctx);
  const notesReport = opts.notes ? new NotesReport(opts.notes, ctx) : undefined;
  const output: Output = await openOutput(opts.output, ctx.io.stdout);
  const validator = opts.validate
    ? await createRecordValidator({ ...(opts.shapes ? { shapesDir: opts.shapes } : {}), schemaScheme: opts.schemaHttps ? 'https' : 'http' })
    : undefined;
  const writer = new GuardedWriter(serializerFor(format).createWriter(serializerOptions));

  const reject = async (rejection: Rejection): Promise<void> => {
    stats.addRejected(rejection);
    await rejects.add(rejection);
    if (opts.strict) throw strictError(rejection);
  };

  /** Records are validated in batches (records that share no node cost less together); without --validate, one at a time. */
  const batchSize = validator ? 16 : 1;

  // A second record with a DOI already seen would merge into the first one's node (two titles, ...): rejected.
  const dois = new DoiSet();

  async function* groups(): AsyncGenerator<readonly MappedRecord['quads'][number][]> {
    for (const path of inputs) {
      const file = await openRdfFile(path, ctx.io.stdin);
      let batch: Converted[] = [];
      for await (const item of readRecords(file.input, { source: file.source })) {
        const outcome = convertItem(item, mapOptions);
        batch.push({ item, outcome });
        if (batch.length >= batchSize) {
          yield* settle(batch);
          batch = [];
        }
      }
      yield* settle(batch);
    }
  }

  /** Validates (with --validate) and passes on a batch of converted items, in input order. */
  async function* settle(batch: readonly Converted[]): AsyncGenerator<readonly MappedRecord['quads'][number][]> {
    const mapped = batch.flatMap((b) => (b.outcome.kind === 'mapped' ? [b.outcome.mapped.quads] : []));
    const validations = validator && mapped.length ? await validator.validateRecords(mapped) : [];
    let next = 0;
    for (const { item, outcome } of batch) {
      if (outcome.kind === 'mapped' && validator) {
        const validation = validations[next++]!;
        const violations = validation.results.filter((r) => r.severity === 'Violation');
        if (violations.length > 0) {
          await reject({
            source: item.source,
            ...(item.index !== undefined ? { index: item.index } : {}),
            ...(item.line !== undefined ? { line: item.line } : {}),
            recordId: outcome.mapped.doi,
            field: violations[0]!.path ?? '(shapes)',
            reason: `does not conform to the shapes: ${describeResult(violations[0]!)}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`,
            violations: violationsToJson(validation),
            ...(item.kind === 'record' ? { record: item.raw } : {}),
          });
          continue;
        }
      }
      // Only a record that goes into the output takes its DOI: a rejected one leaves it to a later, valid copy.
      if (outcome.kind === 'mapped' && !dois.add(outcome.mapped.doi)) {
        await reject(duplicateDoi(item, outcome.mapped.doi).rejection);
        continue;
      }
      if (outcome.kind === 'mapped') {
        yield outcome.mapped.quads;
        // writeRecords has written the group by now: a record the format cannot carry is a rejection, not a failed run.
        const failure = writer.takeFailure();
        if (failure) {
          await reject({
            source: item.source,
            ...(item.index !== undefined ? { index: item.index } : {}),
            ...(item.line !== undefined ? { line: item.line } : {}),
            recordId: outcome.mapped.doi,
            field: '(output)',
            reason: `cannot be written as ${formatInfo(format).label}: ${failure.message}`,
            ...(item.kind === 'record' ? { record: item.raw } : {}),
          });
        } else {
          stats.addMapped(outcome.mapped);
          await notesReport?.add({
            source: item.source,
            ...(item.index !== undefined ? { index: item.index } : {}),
            ...(item.line !== undefined ? { line: item.line } : {}),
            recordId: outcome.mapped.doi,
            notes: outcome.mapped.notes,
          });
        }
      } else {
        await reject(outcome.rejection);
      }
    }
  }

  try {
    await writeRecords(groups(), writer, output.stream, { signal: ctx.signal });
    await output.close();
  } catch (err) {
    // Never leave a half-written file that looks complete (a cut Turtle file is still valid Turtle).
    await output.discard();
    if (output.name !== '<stdout>') ctx.log(`convert: stopped; nothing was written to ${output.name} (no partial output is kept)`);
    throw err;
  } finally {
    await rejects.close();
    await notesReport?.close();
  }
  if (!opts.quiet) {
    ctx.log(oneLine(`convert: ${stats.summary()}${output.name !== '<stdout>' ? `; wrote ${output.name} (${format})` : ''}`, 2000));
    if (stats.notes > 0) ctx.log(opts.notes ? `notes: in ${opts.notes}` : 'notes: what was changed or left out in written records; --notes FILE lists them');
  }
  rejects.report();
  if (stats.rejected > 0) ctx.setExitCode(1);
}

/** An item read and what converting it gave. */
interface Converted {
  item: ReadItem;
  outcome: ConvertOutcome;
}

function strictError(r: Rejection): ToolkitError {
  return new ToolkitError(`--strict: stopped at the first rejected record: ${describeRejection(r)}`, 'records-rejected');
}

/** A usage error unless an option's value is an absolute IRI every format can write as it is. */
function checkIriOption(name: string, value: string): void {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value)) throw new ToolkitError(`${name} "${oneLine(value)}" is not an absolute IRI`, 'usage');
  try {
    escapeResolvedIri(value);
  } catch (err) {
    if (err instanceof ToolkitError && err.code === 'serialization') {
      throw new ToolkitError(`${name} "${oneLine(value)}" cannot be used: ${err.message}`, 'usage', { cause: err });
    }
    throw err;
  }
}

/** The rejection of a record whose DOI came before in the same run. */
function duplicateDoi(item: ReadItem, doi: string): Extract<ConvertOutcome, { kind: 'rejected' }> {
  return {
    kind: 'rejected',
    rejection: {
      source: item.source,
      ...(item.index !== undefined ? { index: item.index } : {}),
      ...(item.line !== undefined ? { line: item.line } : {}),
      recordId: doi,
      field: 'doi',
      reason: 'a record with the same DOI (DOIs are case-insensitive) came before it in this run; its triples would merge into that record\'s',
      ...(item.kind === 'record' ? { record: item.raw } : {}),
    },
  };
}
