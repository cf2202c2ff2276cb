import type { Readable } from 'node:stream';
import type { FormatName } from '../formats.js';
import { formatFromPath } from '../formats.js';
import { sniffRdf } from '../parse/parseRdf.js';

/** What an input of `convert` holds: the service's JSON records, or an RDF document in one of the five formats. */
export type ConvertInput = { kind: 'records'; input: Readable | AsyncIterable<string> } | { kind: 'rdf'; format: FormatName; input: Readable | AsyncIterable<string> };

/** How much of a JSON document is looked at for JSON-LD keywords. */
const HEAD_CHARS = 65536;

/**
 * Tells an RDF document from the service's JSON: by the file's extension
 * (`.ttl`, `.nt`, `.nq`, `.jsonld`, `.rdf`, `.owl`, `.xml`, before `.gz`);
 * else (`.json`, `.jsonl`, stdin, no extension) by its first characters: RDF
 * syntax is RDF, JSON is the service's unless `"@context"` or `"@graph"` is a
 * key near its start (JSON-LD). Nothing is read beyond that head, which is
 * kept for the reader.
 */
export async function classifyInput(path: string, input: Readable): Promise<ConvertInput> {
  const byName = path === '-' ? undefined : formatFromPath(path);
  if (byName !== undefined && (byName !== 'jsonld' || /\.jsonld(\.gz)?$/i.test(path))) return { kind: 'rdf', format: byName, input };
  const { format, text } = await sniffRdf(input);
  if (format === undefined) return { kind: 'records', input: text };
  if (format !== 'jsonld') return { kind: 'rdf', format, input: text };
  const { head, all } = await peek(text, HEAD_CHARS);
  return /"@(?:context|graph)"\s*:/.test(head) ? { kind: 'rdf', format: 'jsonld', input: all } : { kind: 'records', input: all };
}

/** The first `chars` characters of a text stream, and the whole stream again. */
async function peek(text: AsyncIterable<string>, chars: number): Promise<{ head: string; all: AsyncIterable<string> }> {
  const iterator = text[Symbol.asyncIterator]();
  const seen: string[] = [];
  let length = 0;
  let done = false;
  while (length < chars) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    length += next.value.length;
  }
  async function* all(): AsyncGenerator<string> {
    yield* seen;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: seen.join('').slice(0, chars), all: all() };
}
