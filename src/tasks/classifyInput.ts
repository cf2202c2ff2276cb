import type { Readable } from 'node:stream';
import { extensionOf, formatFromPath, formatInfo, type FormatName } from '../formats.js';
import { sniffRdf } from '../parse/parseRdf.js';

/** What an input of `convert` holds: the service's JSON records, or an RDF document in one of the five formats. */
export type ConvertInput =
  | { kind: 'records'; input: Readable | AsyncIterable<string | Uint8Array> }
  | { kind: 'rdf'; format: FormatName; input: Readable | AsyncIterable<string | Uint8Array> };

/**
 * Tells an RDF document from the service's JSON: by the file's extension
 * (`.ttl`, `.nt`, `.nq`, `.jsonld`, `.rdf`, `.owl`, `.xml`, before `.gz`);
 * else (`.json`, `.jsonl`, stdin, no extension) by its first characters: RDF
 * syntax (Turtle, N-Triples, N-Quads, RDF/XML) is RDF, and JSON is always the
 * service's (a record may hold any key, `@context` too: JSON-LD is read by
 * its extension, `.jsonld`). Nothing is read beyond the head the sniffer
 * needs, which is kept for the reader.
 */
export async function classifyInput(path: string, input: Readable | AsyncIterable<Uint8Array>): Promise<ConvertInput> {
  const byName = path === '-' ? undefined : formatFromPath(path);
  if (byName !== undefined && (byName !== 'jsonld' || extensionOf(path) === formatInfo('jsonld').extensions[0]))
    return { kind: 'rdf', format: byName, input };
  const { format, text } = await sniffRdf(input);
  if (format === undefined) return { kind: 'records', input: text };
  return format === 'jsonld' ? { kind: 'records', input: text } : { kind: 'rdf', format, input: text };
}
