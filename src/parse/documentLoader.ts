import { readFile } from 'node:fs/promises';
import { ToolkitError } from '../errors.js';
import { parseLinkHeader } from './parseLinkHeader.js';
import { formatInfo } from '../formats.js';

/**
 * The JSON-LD contexts the toolkit ships in `vocab/`, by the URL documents use
 * to reference them. The loader serves these without touching the network.
 */
export const SHIPPED_CONTEXTS: Readonly<Record<string, string>> = {
  /** The toolkit's own output context (written by the serialisers). */
  'https://w3id.org/scholarly-rdf/context.jsonld': 'context.jsonld',
  /** Reduced copy of SN SciGraph's context, used by `vocab/pagination.jsonld` (see vocab/README.md). */
  'https://springernature.github.io/scigraph/jsonld/sgcontext.json': 'sgcontext.jsonld',
  'http://springernature.github.io/scigraph/jsonld/sgcontext.json': 'sgcontext.jsonld',
};

/** The `vocab/` folder of the package (the same relative path from `src/` and `dist/`). */
export const VOCAB_DIR_URL = new URL('../../vocab/', import.meta.url);

/** A parsed JSON document (a JSON-LD context document). */
export type JsonDocument = Record<string, unknown> | unknown[];

/**
 * Loads the JSON-LD documents that `@context` URLs point to. The shape is
 * jsonld-streaming-parser's (jsonld-context-parser's `IDocumentLoader`); use
 * {@link toJsonldJsLoader} to hand it to jsonld.js.
 */
export interface DocumentLoader {
  load(url: string): Promise<JsonDocument>;
}

/** Options of {@link createDocumentLoader}. */
export interface DocumentLoaderOptions {
  /** Whether URLs that are not shipped may be fetched over the network. Defaults to false. */
  allowNetwork?: boolean;
  /** The fetch used when the network is allowed. Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Extra documents by URL (tests, private contexts); they win over shipped ones. Defaults to none. */
  documents?: Readonly<Record<string, JsonDocument>>;
  /** Time limit of one network fetch, in milliseconds. Defaults to 15000. */
  timeoutMs?: number;
  /** Cancels network fetches. Defaults to none. */
  signal?: AbortSignal;
}

/**
 * A document loader that serves the contexts shipped in `vocab/` (and
 * `options.documents`) and refuses every other URL with a `network` error
 * naming it, unless `allowNetwork` is set. Documents are cached per loader.
 */
export function createDocumentLoader(options: DocumentLoaderOptions = {}): DocumentLoader {
  const cache = new Map<string, Promise<JsonDocument>>();
  const load = async (url: string): Promise<JsonDocument> => {
    const key = url.replace(/#.*$/, '');
    const extra = options.documents?.[key];
    if (extra) return extra;
    const file = SHIPPED_CONTEXTS[key];
    if (file) return readShipped(file);
    if (!options.allowNetwork) {
      throw new ToolkitError(
        `the JSON-LD context ${key} is not shipped with the toolkit and the network is not allowed (offline)`,
        'network',
        { details: { url: key } },
      );
    }
    return fetchJson(key, options);
  };
  return {
    load(url) {
      const key = url.replace(/#.*$/, '');
      let hit = cache.get(key);
      if (!hit) {
        hit = load(key);
        cache.set(key, hit);
        hit.catch(() => cache.delete(key));
      }
      return hit;
    },
  };
}

/** Reads one shipped file of `vocab/` as JSON. */
async function readShipped(file: string): Promise<JsonDocument> {
  const url = new URL(file, VOCAB_DIR_URL);
  let text: string;
  try {
    text = await readFile(url, 'utf8');
  } catch (cause) {
    throw new ToolkitError(`the shipped JSON-LD context ${url.pathname} cannot be read`, 'internal', { cause });
  }
  try {
    return JSON.parse(text) as JsonDocument;
  } catch (cause) {
    throw new ToolkitError(`the shipped JSON-LD context ${url.pathname} is not JSON`, 'internal', { cause });
  }
}

async function fetchJson(url: string, options: DocumentLoaderOptions, hops = 0): Promise<JsonDocument> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      headers: { accept: `${formatInfo('jsonld').mediaType}, application/json;q=0.9, */*;q=0.1` },
      redirect: 'follow',
      signal,
    });
    text = response.ok ? await response.text() : '';
  } catch (cause) {
    throw new ToolkitError(`cannot fetch the JSON-LD context ${url}: ${(cause as Error).message}`, 'network', {
      cause,
    });
  }
  if (!response.ok) {
    throw new ToolkitError(`cannot fetch the JSON-LD context ${url}: HTTP ${response.status}`, 'http-status', {
      details: { url, status: response.status },
    });
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!/json/i.test(contentType) && hops < 2) {
    // JSON-LD 1.1 §9.4.1: an HTML answer may point to the JSON-LD by a Link rel="alternate"
    // (schema.org answers https://schema.org with HTML and Link: </docs/jsonldcontext.jsonld>).
    const alternate = parseLinkHeader(response.headers.get('link'), response.url || url).find(
      (l) => l.rel.includes('alternate') && /^application\/ld\+json\b/i.test(l.type ?? ''),
    );
    if (alternate) return fetchJson(alternate.url, options, hops + 1);
  }
  try {
    return JSON.parse(text) as JsonDocument;
  } catch (cause) {
    throw new ToolkitError(
      `the JSON-LD context ${url} is not JSON (Content-Type: ${contentType || 'none'})`,
      'bad-response',
      { cause },
    );
  }
}

/** The same loader in jsonld.js's shape (`documentLoader` option of `jsonld.expand`, `toRDF`, ...). */
export function toJsonldJsLoader(
  loader: DocumentLoader,
): (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: JsonDocument }> {
  return async (url) => ({ contextUrl: null, documentUrl: url, document: await loader.load(url) });
}
