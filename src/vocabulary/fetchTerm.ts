import type * as RDF from '@rdfjs/types';
import { HttpError, ParseError, ToolkitError, hideUrlSecrets } from '../errors.js';
import { FORMATS, formatFromMediaType, formatInfo, type FormatName } from '../formats.js';
import { extractHtmlRdf } from '../parse/extractHtmlRdf.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { sniffFormat } from '../parse/sniffFormat.js';
import { proxyFetch } from '../http/proxyFetch.js';
import { PREFERRED_TERM_FORMATS, preferredFormat, toAcceptHeader } from './acceptHeader.js';
import { createDocumentLoader, type DocumentLoader } from '../parse/documentLoader.js';
import { parseLinkHeader } from '../parse/parseLinkHeader.js';
import { FallbackAllowed, getTermDocument, type TermRequest } from './getTermDocument.js';

/** The default vocabulary URL: schema.org, where `pagination` is defined. */
export const DEFAULT_VOCAB_URL = 'https://schema.org';

/** How the term was obtained. */
export type TermSource =
  | 'negotiation' // the answer to the request itself
  | 'html-script' // JSON-LD embedded in an HTML page
  | 'link-alternate' // the target of a `Link: <...>; rel="alternate"` header
  | 'html-link' // the target of an HTML `<link rel="alternate">`
  | 'extension' // a `.jsonld`/`.ttl`/`.nt`/`.rdf` URL after a 404/406
  | 'shipped'; // the copy in `vocab/`

/** A vocabulary term as fetched (or loaded from `vocab/`). */
export interface FetchedTerm {
  /** Every quad of the document (not only those about the term; no count is assumed). */
  quads: RDF.Quad[];
  /** The media type of the RDF that was parsed (canonical, e.g. `text/turtle` even if sent as `text/plain`). */
  mediaType: string;
  /** The RDF format that was parsed. */
  format: FormatName;
  /** The RDF text that was parsed (for an HTML page: the embedded JSON-LD). */
  body: string;
  /** The URL the RDF came from, after redirects. */
  url: string;
  /** The `Content-Type` the server sent, as sent. */
  contentType?: string;
  /** How the RDF was obtained. */
  via: TermSource;
  /** What was untidy about the answer (wrong Content-Type, redirect, fallback), for logs. */
  notes: string[];
}

/** Options of {@link fetchTerm}. */
export interface FetchTermOptions {
  /** The vocabulary's base URL; the term is at `{vocabUrl}/{name}`. Defaults to `https://schema.org`. */
  vocabUrl?: string;
  /**
   * What to ask for: a format name, a media type or a whole Accept header.
   * Defaults to a q-weighted header of every format we read ({@link toAcceptHeader}).
   */
  accept?: string;
  /**
   * The fetch to use (tests inject one), also for JSON-LD contexts. Defaults
   * to the global `fetch`, through the proxy that `HTTPS_PROXY`/`HTTP_PROXY`
   * name unless `NO_PROXY` covers the host (read at each request).
   */
  fetch?: typeof globalThis.fetch;
  /** Cancels the request; the call then rejects with code `aborted`. Defaults to none. */
  signal?: AbortSignal;
  /** Time limit of each HTTP request, headers and body, in milliseconds. Defaults to 30000. */
  timeoutMs?: number;
  /**
   * After a 404 or 406, or an HTML page without RDF, try `{url}.jsonld`, `.ttl`,
   * `.nt`, `.rdf` (the asked format first). Defaults to true.
   */
  fallbackExtensions?: boolean;
  /**
   * Loads JSON-LD `@context` URLs. Defaults to the shipped contexts, then the
   * network with the same `fetch` (pass `createDocumentLoader()` to stay offline).
   */
  documentLoader?: DocumentLoader;
}

const TERM_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.~-]*$/;

/**
 * Fetches a vocabulary term by content negotiation and parses whatever came
 * back. It copes with untidy servers: the body wins over a wrong
 * `Content-Type`; an HTML page yields its embedded JSON-LD, or the RDF its
 * `Link: rel="alternate"` header (or `<link>` element) points to; redirects
 * are followed; 404/406 can fall back to `.jsonld`/`.ttl`/`.nt`/`.rdf` URLs.
 *
 * Fails with a {@link HttpError} naming the URL and the Accept header:
 * `not-found` (404), `not-acceptable` (406), `http-status` (other statuses),
 * `network` (connection failure or timeout); `bad-response` when the answer
 * holds no RDF; `parse` when it is broken; `aborted` when `signal` fires.
 */
export async function fetchTerm(name: string, options: FetchTermOptions = {}): Promise<FetchedTerm> {
  if (!TERM_NAME.test(name)) {
    throw new ToolkitError(`"${name}" is not a term name (letters, digits, _ . ~ -)`, 'usage');
  }
  const given = options.vocabUrl ?? DEFAULT_VOCAB_URL;
  let base: URL;
  try {
    base = new URL(given);
  } catch {
    throw new ToolkitError(`"${hideUrlSecrets(given)}" is not a URL`, 'usage');
  }
  if (base.username || base.password) {
    // fetch refuses such a URL, and the password would be in every message.
    throw new ToolkitError(
      `the vocabulary URL holds a user name or password, which cannot be sent: ${hideUrlSecrets(given)}`,
      'usage',
    );
  }
  const url = below(base, name);
  const accept = toAcceptHeader(options.accept);
  const fetch = options.fetch ?? proxyFetch();
  const ctx: TermRequest = {
    accept,
    fetch,
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 30_000,
    documentLoader:
      options.documentLoader ??
      createDocumentLoader({ allowNetwork: true, fetch, signal: options.signal, timeoutMs: options.timeoutMs }),
  };
  try {
    const term = await fetchWithFallback(url, ctx, options.fallbackExtensions ?? true);
    // A key in the vocabulary URL's query (?api_key=) is masked wherever the URL is told.
    return { ...term, url: hideUrlSecrets(term.url), notes: term.notes.map(hideUrlSecrets) };
  } catch (err) {
    throw withUrlSecretsHidden(err);
  }
}

/** The error with secrets of URLs masked in its message and in the URL it names. */
function withUrlSecretsHidden(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  err.message = hideUrlSecrets(err.message);
  const named = err as Error & { url?: unknown; details?: Record<string, unknown> };
  if (typeof named.url === 'string') named.url = hideUrlSecrets(named.url);
  if (named.details && typeof named.details['url'] === 'string')
    named.details['url'] = hideUrlSecrets(named.details['url']);
  return err;
}

/** `{base}/{name}`, the base's query string kept after the path. */
function below(base: URL, name: string): string {
  const u = new URL(base.href);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/${name}`;
  return u.href;
}

/** The negotiated GET, then (after a 404, 406 or HTML without RDF) the same URL with each format's extension. */
async function fetchWithFallback(url: string, ctx: TermRequest, fallback: boolean): Promise<FetchedTerm> {
  try {
    return await fetchRdf(url, ctx, 'negotiation', true);
  } catch (err) {
    if (!fallback || !(err instanceof FallbackAllowed)) throw unwrap(err);
    const tried: string[] = [];
    for (const ext of fallbackExtensions(ctx.accept)) {
      const alt = withExtension(url, ext);
      tried.push(`.${ext}`);
      try {
        const term = await fetchRdf(alt, ctx, 'extension', false);
        term.notes.unshift(`${url} gave ${err.error.status ?? 'no RDF'}; used ${alt}`);
        return term;
      } catch (altErr) {
        if (!(altErr instanceof FallbackAllowed)) throw unwrap(altErr);
      }
    }
    const e = err.error;
    throw new HttpError(`${e.message}; also tried ${tried.join(', ')}: none found`, e.code, e.url, e.status, false, {
      cause: e,
    });
  }
}

/** A URL with `.ext` added to its path (before any query string). */
function withExtension(url: string, ext: string): string {
  const u = new URL(url);
  u.pathname = `${u.pathname}.${ext}`;
  return u.href;
}

function unwrap(err: unknown): unknown {
  return err instanceof FallbackAllowed ? err.error : err;
}

function fallbackExtensions(accept: string): string[] {
  const order = PREFERRED_TERM_FORMATS;
  const first = preferredFormat(accept);
  const formats = first && order.includes(first) ? [first, ...order.filter((f) => f !== first)] : order;
  return formats.map((f) => formatInfo(f).extensions[0]!);
}

async function fetchRdf(
  url: string,
  ctx: TermRequest,
  via: TermSource,
  followAlternates: boolean,
): Promise<FetchedTerm> {
  const { response, body } = await getTermDocument(url, ctx);
  const finalUrl = response.url || url;
  const notes: string[] = [];
  if (response.redirected) notes.push(`redirected from ${url} to ${finalUrl}`);
  const contentType = response.headers.get('content-type') ?? undefined;
  const declared = contentType ? formatFromMediaType(contentType) : undefined;
  const declaresHtml =
    contentType !== undefined && /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i.test(contentType);
  const sniffed = sniffFormat(body.slice(0, 4096));

  if (sniffed === 'html' || (sniffed === undefined && declaresHtml)) {
    return fromHtml(finalUrl, body, response, contentType, ctx, notes, followAlternates);
  }
  const candidates = chooseFormats(declared, sniffed);
  if (candidates.length === 0) {
    throw new HttpError(
      `GET ${finalUrl} (Accept: ${ctx.accept}): the answer is neither RDF nor HTML (Content-Type: ${contentType ?? 'none'})`,
      'bad-response',
      finalUrl,
      response.status,
      false,
    );
  }
  if (declared !== candidates[0]) {
    notes.push(`Content-Type ${contentType ?? '(none)'} but the body is ${formatInfo(candidates[0]!).label}`);
  }
  let lastError: unknown;
  for (const format of candidates) {
    try {
      const quads = await parseAll(body, format, finalUrl, ctx);
      requireTriples(quads, finalUrl, format, ctx);
      return { quads, mediaType: formatInfo(format).mediaType, format, body, url: finalUrl, contentType, via, notes };
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** Formats to try, best first: the sniffed one wins over the declared one, except where one is a subset of the other. */
function chooseFormats(declared: FormatName | undefined, sniffed: FormatName | 'html' | undefined): FormatName[] {
  const out: FormatName[] = [];
  const add = (f: FormatName | 'html' | undefined) => {
    if (f && f !== 'html' && !out.includes(f)) out.push(f);
  };
  // N-Triples is a subset of every grammar n3 reads (Turtle, N-Quads, TriG): such a body may sniff as N-Triples.
  if (sniffed === 'ntriples' && declared !== undefined && formatInfo(declared).parser === 'n3') add(declared);
  add(sniffed);
  add(declared);
  return out;
}

async function fromHtml(
  url: string,
  html: string,
  response: Response,
  contentType: string | undefined,
  ctx: TermRequest,
  notes: string[],
  followAlternates: boolean,
): Promise<FetchedTerm> {
  const readable = (type: string | undefined) => (type ? formatFromMediaType(type) : undefined);
  const headerLinks = parseLinkHeader(response.headers.get('link'), url).filter(
    (l) => l.rel.includes('alternate') && readable(l.type) !== undefined,
  );
  const page = extractHtmlRdf(html);
  const pageLinks = page.alternates
    .filter((l) => readable(l.type) !== undefined)
    .map((l) => ({ url: new URL(l.href, url).href, type: l.type }));
  const asked = preferredFormat(ctx.accept);

  // 1. A Link header alternate in exactly the asked format beats the embedded JSON-LD.
  if (followAlternates && asked && asked !== 'jsonld') {
    const exact =
      headerLinks.find((l) => readable(l.type) === asked) ?? pageLinks.find((l) => readable(l.type) === asked);
    if (exact) return follow(exact.url, headerLinks.includes(exact as never) ? 'link-alternate' : 'html-link');
  }
  // 2. Embedded JSON-LD.
  if (page.jsonLdScripts.length > 0) {
    const docs: unknown[] = [];
    for (const script of page.jsonLdScripts) {
      try {
        const doc = JSON.parse(script) as unknown;
        docs.push(...(Array.isArray(doc) ? doc : [doc]));
      } catch (cause) {
        throw new ParseError(
          `invalid JSON in <script type="${formatInfo('jsonld').mediaType}">: ${(cause as Error).message}`,
          url,
          undefined,
          undefined,
          { cause },
        );
      }
    }
    const body = page.jsonLdScripts.length === 1 ? page.jsonLdScripts[0]! : JSON.stringify(docs, null, 2);
    const quads = await parseAll(body, 'jsonld', url, ctx);
    if (quads.length > 0) {
      notes.push(`HTML page (Content-Type ${contentType ?? 'none'}): used its embedded JSON-LD`);
      return {
        quads,
        mediaType: formatInfo('jsonld').mediaType,
        format: 'jsonld',
        body,
        url,
        contentType,
        via: 'html-script',
        notes,
      };
    }
  }
  // 3. Any readable alternate: Link header first, then <link> elements.
  if (followAlternates) {
    if (headerLinks[0]) return follow(headerLinks[0].url, 'link-alternate');
    if (pageLinks[0]) return follow(pageLinks[0].url, 'html-link');
  }
  throw new FallbackAllowed(
    new HttpError(
      `GET ${url} (Accept: ${ctx.accept}): the server sent an HTML page with no RDF (no JSON-LD script, no Link rel="alternate" to ${FORMATS.map((f) => f.label).join('/')})`,
      'bad-response',
      url,
      response.status,
      false,
    ),
  );

  async function follow(target: string, via: TermSource): Promise<FetchedTerm> {
    const term = await fetchRdf(target, ctx, via, false);
    term.notes.unshift(...notes, `HTML page at ${url}: followed its alternate ${target}`);
    return term;
  }
}

async function parseAll(body: string, format: FormatName, url: string, ctx: TermRequest): Promise<RDF.Quad[]> {
  const quads: RDF.Quad[] = [];
  for await (const q of parseRdfQuads(body, {
    format,
    baseIRI: url,
    source: url,
    documentLoader: ctx.documentLoader,
    signal: ctx.signal,
  })) {
    quads.push(q);
  }
  return quads;
}

/** A term needs at least one triple; an empty graph (`{}`, an error object sent as 200) is not an answer. */
function requireTriples(quads: readonly RDF.Quad[], url: string, format: FormatName, ctx: TermRequest): void {
  if (quads.length > 0) return;
  throw new HttpError(
    `GET ${url} (Accept: ${ctx.accept}): the answer is ${formatInfo(format).label} without a single triple`,
    'bad-response',
    url,
    200,
    false,
  );
}
