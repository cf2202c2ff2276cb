import type * as RDF from '@rdfjs/types';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { ConvertStats, type ConvertSummary } from '../convert/ConvertStats.js';
import { LineFile } from '../convert/LineFile.js';
import { type Output, openOutput } from '../convert/openOutput.js';
import { ToolkitError } from '../errors.js';
import { formatFromPath, formatInfo } from '../formats.js';
import { NS } from '../rdf/namespaces.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { parseRdf } from '../parse/parseRdf.js';
import { RecordSink } from '../pipeline/RecordSink.js';
import { type Rejection, describeRejection, oneLine, rejectionLine } from '../pipeline/Rejection.js';
import { writeText } from '../pipeline/writeText.js';
import { readRecords, type ReadItem } from '../record/readRecords.js';
import { DEFAULT_PREFIXES } from '../rdf/prefixes.js';
import type { FormatName, SerializerOptions } from '../serialize/QuadSerializer.js';
import { escapeResolvedIri } from '../serialize/escape.js';
import { serializerFor } from '../serialize/serializers.js';
import { classifyInput } from './classifyInput.js';
import { createRecordValidation } from './createRecordValidation.js';
import { type NamedOutput, refuseOverwritingInputs, shapeFiles } from './refuseOverwritingInputs.js';

/** Options of {@link convertFiles}. */
export interface ConvertFilesOptions {
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
}

/**
 * Converts saved responses of the service to one RDF output: reads every
 * input record by record, and passes each through the record pipeline
 * (normalise, map, validate, de-duplicate, write). An input that is an RDF
 * document (any of the five formats, by extension or content: see
 * {@link classifyInput}) is re-serialised statement by statement instead. Memory does not grow with
 * the number of records. A run that fails leaves no partial output file (an
 * existing one stays as it was). Rejected records are in the summary's count,
 * the rejects file and `onRejected`, never lost.
 */
export async function convertFiles(options: ConvertFilesOptions): Promise<ConvertSummary> {
  const toFile = options.output !== undefined && options.output !== '-';
  const fromPath = toFile ? formatFromPath(options.output!) : undefined;
  const format: FormatName = options.format ?? fromPath ?? 'turtle';
  checkOptions(options, format);
  if (options.format && fromPath && fromPath !== format) options.onWarning?.(`writing ${formatInfo(format).label} to ${options.output}, whose name says ${formatInfo(fromPath).label} (\`format\` wins)`);
  if (!toFile && !options.stream) throw new ToolkitError('convertFiles needs an output file (`output`) or a stream (`stream`)', 'usage');

  const rejectsPath = options.rejectsPath ?? (toFile ? `${options.output!.replace(/\.gz$/i, '')}.rejects.jsonl` : undefined);
  const outputs: NamedOutput[] = [
    ...(toFile ? [{ path: options.output!, what: '`output`' }] : []),
    ...(rejectsPath ? [{ path: rejectsPath, what: '`rejectsPath`' }] : []),
    ...(options.notesPath ? [{ path: options.notesPath, what: '`notesPath`' }] : []),
  ];
  refuseOverwritingInputs(outputs, [...options.inputs, ...(options.validate ? shapeFiles(options.shapesDir) : [])]);
  const stats = new ConvertStats();
  const fallback = options.stream ?? new PassThrough();
  const rejects = rejectsPath ? new LineFile(rejectsPath, fallback) : undefined;
  const notes = options.notesPath ? new LineFile(options.notesPath, fallback) : undefined;
  const validation = options.validate ? await createRecordValidation({ ...(options.shapesDir ? { shapesDir: options.shapesDir } : {}), schemaScheme: options.schemaScheme ?? 'http' }) : undefined;
  const output: Output = await openOutput(toFile ? options.output : undefined, fallback);
  const writer = serializerFor(format).createWriter(serializerOptions(options));
  const sink = new RecordSink(writer, {
    ...(options.base ? { base: options.base } : {}),
    schemaScheme: options.schemaScheme ?? 'http',
    ...(options.graphPerRecord ? { graphPerRecord: true } : {}),
    format,
    ...(validation ? { validation } : {}),
    onRejected: async (rejection) => {
      stats.addRejected(rejection);
      options.onRejected?.(rejection);
      await rejects?.append(rejectionLine(rejection));
      if (options.strict) throw new ToolkitError(`\`strict\`: stopped at the first rejected record: ${describeRejection(rejection)}`, 'records-rejected');
    },
    onWritten: async ({ item, mapped }) => {
      stats.addMapped(mapped);
      if (mapped.notes.length === 0 || !notes) return;
      const where = { source: item.source, index: item.index, ...(item.line !== undefined ? { line: item.line } : {}) };
      await notes.append(`${JSON.stringify({ ...where, recordId: mapped.doi, notes: mapped.notes })}\n`);
    },
  });
  try {
    let text = sink.start();
    const flush = async (): Promise<void> => {
      await writeText(output.stream, text, options.signal);
      text = '';
    };
    for (const path of options.inputs) {
      const file = await openRdfFile(path, options.stdin);
      const input = await classifyInput(path, file.input);
      if (input.kind === 'rdf') {
        // An RDF document is re-serialised as it is, streaming (as riot does): its statements, not records.
        for await (const group of subjectGroups(parseRdf(input.input, { format: input.format, source: file.source, ...(options.signal ? { signal: options.signal } : {}) }))) {
          text += writer.write(group);
          stats.addStatements(group.length);
          if (text.length >= CHUNK) await flush();
        }
        continue;
      }
      let batch: ReadItem[] = [];
      for await (const item of readRecords(input.input, { source: file.source })) {
        batch.push(item);
        if (batch.length < sink.batchSize) continue;
        text += await sink.take(batch);
        batch = [];
        if (text.length >= CHUNK) await flush();
      }
      text += await sink.take(batch);
    }
    text += sink.end();
    await flush();
    await output.close();
  } catch (err) {
    // Never leave a half-written file that looks complete (a cut Turtle file is still valid Turtle).
    await output.discard();
    throw err;
  } finally {
    await rejects?.close();
    await notes?.close();
  }
  return { ...stats.toSummary(), format, output: toFile ? options.output! : null, rejectsPath: rejects && rejects.lines > 0 ? rejectsPath! : null, notesPath: notes && notes.lines > 0 ? options.notesPath! : null };
}

/** Consecutive quads of one subject and graph, in groups of at most 1,000 (what a record writer writes best). */
async function* subjectGroups(quads: AsyncIterable<RDF.Quad>): AsyncGenerator<RDF.Quad[]> {
  let group: RDF.Quad[] = [];
  for await (const q of quads) {
    const last = group[group.length - 1];
    if (last && (group.length >= 1000 || !last.subject.equals(q.subject) || !last.graph.equals(q.graph))) {
      yield group;
      group = [];
    }
    group.push(q);
  }
  if (group.length > 0) yield group;
}

/** Text is gathered into writes of about this many characters. */
const CHUNK = 65536;

function serializerOptions(options: ConvertFilesOptions): SerializerOptions {
  return {
    prefixes: options.schemaScheme === 'https' ? { ...DEFAULT_PREFIXES, schema: NS.schemaHttps } : DEFAULT_PREFIXES,
    ...(options.graph ? { graph: options.graph } : {}),
    ...(options.jsonldContext ? { jsonldContext: options.jsonldContext } : {}),
  };
}

function checkOptions(options: ConvertFilesOptions, format: FormatName): void {
  if (options.graph !== undefined) checkIriOption('`graph`', options.graph);
  if (options.graphPerRecord && options.graph !== undefined) throw new ToolkitError('`graph` (one graph for all records) and `graphPerRecord` (a graph for each) do not go together', 'usage');
  if (options.graph !== undefined && format !== 'nquads') throw new ToolkitError(`\`graph\` needs N-Quads output, not ${formatInfo(format).label}`, 'usage');
  if (options.graphPerRecord && format !== 'nquads' && format !== 'jsonld') {
    throw new ToolkitError(`\`graphPerRecord\` needs N-Quads or JSON-LD output, not ${formatInfo(format).label}, which has no named graphs`, 'usage');
  }
  if (options.shapesDir !== undefined && !options.validate) throw new ToolkitError('`shapesDir` goes with `validate`', 'usage');
  // The base starts every IRI minted for a record: a bad one would make every record unwritable.
  if (options.base !== undefined) checkIriOption('`base`', options.base);
  if (options.inputs.filter((i) => i === '-').length > 1) throw new ToolkitError('standard input (-) can be read only once', 'usage');
}

/** A usage error unless an option's value is an absolute IRI every format can write as it is. */
export function checkIriOption(name: string, value: string): void {
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
