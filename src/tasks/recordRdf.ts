import type { ApiClient } from '../client/ApiClient.js';
import { ToolkitError } from '../errors.js';
import type { FormatName } from '../formats.js';
import { RecordSink } from '../pipeline/RecordSink.js';
import { describeRejection } from '../pipeline/Rejection.js';
import { bareDoi } from '../record/recordDoi.js';
import { serializerFor } from '../serialize/serializers.js';

/** Options of {@link recordRdf}. */
export interface RecordRdfOptions {
  /** The client that asks the service. */
  client: ApiClient;
  /** The format written. Defaults to `turtle`. */
  format?: FormatName;
  /** Base of the IRIs minted for nodes the record owns. Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** Stops the request (code `aborted`). Defaults to none. */
  signal?: AbortSignal;
}

/** One record's RDF, as {@link recordRdf} gives it. */
export interface RecordRdf {
  /** The DOI asked for, bare (no `doi:` or resolver prefix). */
  doi: string;
  format: FormatName;
  /** The whole document. */
  text: string;
  /** Statements written. */
  statements: number;
}

/**
 * One record's RDF, looked up by DOI (`scholarly-rdf get`): asked of the
 * service, mapped and written as a document of its own. A DOI the service
 * does not have is `no-record` (exit 7); a record that cannot be written is
 * `record-invalid`, naming why.
 */
export async function recordRdf(doi: string, options: RecordRdfOptions): Promise<RecordRdf> {
  const format = options.format ?? 'turtle';
  const bare = bareDoi(doi);
  const { record, page } = await options.client.getRecord(bare, options.signal);
  // An empty result, not a failure (since 2026 the service's "no data" 404): its own code and exit status.
  if (!record)
    throw new ToolkitError(
      `no record with DOI ${bare}: the service${page.noData ? ' answered that no data was found for it' : ' has none'}`,
      'no-record',
      { details: { doi: bare } },
    );
  let rejected: string | undefined;
  let statements = 0;
  const sink = new RecordSink(serializerFor(format).createWriter(), {
    ...(options.base ? { base: options.base } : {}),
    format,
    onRejected: (r) => {
      rejected = describeRejection(r);
    },
    onWritten: (w) => {
      statements = w.mapped.quads.length;
    },
  });
  const text =
    sink.start() +
    (await sink.take([{ kind: 'record', raw: record, source: options.client.endpointUrl, index: 1 }])) +
    sink.end();
  if (rejected !== undefined) throw new ToolkitError(`the record cannot be written: ${rejected}`, 'record-invalid');
  return { doi: bare, format, text, statements };
}
