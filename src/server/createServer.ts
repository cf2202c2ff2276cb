import http from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { packagePath, sampleCataloguePath } from '../sample/sampleCatalogue.js';
import { resolveKeys } from './apiKeys.js';
import { Catalogue, loadCatalogue } from './Catalogue.js';
import { evaluateQuery } from './evaluateQuery.js';
import { FaultInjector, type FaultDecision } from './FaultInjector.js';
import { parseQuery, QuerySyntaxError } from './parseQuery.js';
import { parseRequestUrl, type RequestUrl } from './parseRequestUrl.js';
import { RateLimiter } from './RateLimiter.js';
import {
  INVALID_PARAMETERS,
  MISSING_Q,
  UNAUTHORIZED_BODY,
  errorBody,
  premiumBody,
  tooManyRequestsBody,
} from './responses.js';
import { facetsOf, searchPageJson, type EnvelopeKind } from './searchResponse.js';
import { PLAN_PAGE_LIMITS, type ServeOptions } from './ServeOptions.js';
import { vocabularyAnswer } from './vocabularyResource.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const JSONP_TYPE = 'application/javascript; charset=utf-8';
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const DEFAULT_API_MESSAGE = 'This JSON was provided by scholarly-rdf serve (a local copy of the metadata service)';
const NO_FAULT: FaultDecision = { latencyMs: 0, reset: false, throttle: false };
const MAX_START = 1_000_000_000;

/** The search endpoints and the envelope each answers with. */
export const SEARCH_ENDPOINTS: Readonly<Record<string, EnvelopeKind>> = {
  '/meta/v2/json': 'v2',
  '/metadata/json': 'v2',
  '/meta/v1/json': 'meta-v1',
  '/metadata/v1/articles': 'articles-v1',
};

interface CachedResult {
  ids: Int32Array;
  facets?: ReturnType<typeof facetsOf>;
}

/** An answer before it is written. */
interface Answer {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

function json(status: number, body: string, headers?: Record<string, string>): Answer {
  return { status, body, contentType: JSON_TYPE, ...(headers ? { headers } : {}) };
}

function resolveCatalogue(option: ServeOptions['catalogue']): Catalogue {
  if (option instanceof Catalogue) return option;
  return loadCatalogue(option ?? sampleCataloguePath());
}

/**
 * Creates the local metadata service (not yet listening): the endpoints of
 * the specification over an in-memory catalogue, with keys, plans, rate
 * limits, JSONP and optional injected faults. Loads and indexes the
 * catalogue before it returns (synchronously). Call `listen()` on the result;
 * see `startServer()` for the common case. A request never crashes the server:
 * anything unexpected is answered with a 500 JSON body.
 */
export function createServer(options: ServeOptions = {}): http.Server {
  const catalogue = resolveCatalogue(options.catalogue);
  const keys = resolveKeys(options.apiKeys, options.keysFile);
  const limiter = new RateLimiter(options.rate ?? 0, options.now);
  const faults = new FaultInjector(options.faults);
  const retryAfter = String(Math.max(0, Math.round(options.retryAfter ?? 1)));
  const vocabDir = options.vocabDir ?? packagePath('vocab');
  const vocabPath = (options.vocabPath ?? '/vocab').replace(/\/+$/, '');
  const apiMessage = options.apiMessage ?? DEFAULT_API_MESSAGE;
  const cache = new Map<string, CachedResult>();
  const cacheSize = Math.max(0, options.cacheSize ?? 64);

  const search = (url: RequestUrl, kind: EnvelopeKind): Answer => {
    const params = url.params;
    const apiKey = params.get('api_key');
    const plan = apiKey === undefined ? undefined : keys.get(apiKey);
    if (apiKey === undefined || plan === undefined) return json(401, UNAUTHORIZED_BODY);
    const wait = limiter.take(apiKey);
    if (wait > 0) return json(429, tooManyRequestsBody(wait), { 'Retry-After': String(wait) });
    const q = params.get('q');
    if (q === undefined || q.trim() === '') {
      return json(400, errorBody(MISSING_Q, 'Bad Request', 'The query parameter q is required and may not be empty.'));
    }
    const sRaw = params.get('s') ?? '1';
    const pRaw = params.get('p') ?? '10';
    const s = positiveInteger(sRaw);
    const p = positiveInteger(pRaw);
    if (s === undefined || p === undefined || s > MAX_START) {
      const which = s === undefined || s > MAX_START ? `s='${sRaw}'` : `p='${pRaw}'`;
      return json(
        400,
        errorBody(INVALID_PARAMETERS, 'Bad Request', `${which}: s and p must be whole numbers of at least 1 (s is 1-based).`),
      );
    }
    const callback = params.get('callback') ?? '';
    if (callback !== '' && (callback.length > 128 || !CALLBACK.test(callback))) {
      return json(400, errorBody(INVALID_PARAMETERS, 'Bad Request', 'callback must be a JavaScript identifier (a.b.c).'));
    }
    const limit = PLAN_PAGE_LIMITS[plan];
    if (p > limit) return json(403, premiumBody(p, limit, plan));

    const v1 = kind !== 'v2';
    const cacheKey = `${v1 ? 1 : 2}\u0000${q}`;
    let result = cache.get(cacheKey);
    if (result) {
      cache.delete(cacheKey);
      cache.set(cacheKey, result);
    } else {
      let tree;
      try {
        tree = parseQuery(q, {
          allowEquals: v1,
          ...(options.maxQueryLength !== undefined ? { maxLength: options.maxQueryLength } : {}),
          ...(options.maxQueryDepth !== undefined ? { maxDepth: options.maxQueryDepth } : {}),
        });
      } catch (err) {
        if (err instanceof QuerySyntaxError) {
          return json(400, errorBody(`Invalid query: ${err.reason} at position ${err.position + 1}`, 'Bad Request', `Query: ${q}`));
        }
        throw err;
      }
      result = { ids: evaluateQuery(catalogue, tree) };
      if (cacheSize > 0) {
        cache.set(cacheKey, result);
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
      }
    }
    if (kind !== 'articles-v1' && !result.facets && s - 1 < result.ids.length) result.facets = facetsOf(catalogue, result.ids);
    const body = searchPageJson(catalogue, {
      kind,
      path: url.path,
      apiMessage,
      query: q,
      apiKey,
      callback,
      s,
      p,
      ids: result.ids,
      ...(result.facets ? { facets: result.facets } : {}),
    });
    if (callback !== '') return { status: 200, body: `${callback}(${body})`, contentType: JSONP_TYPE };
    return json(200, body);
  };

  const vocabulary = (req: http.IncomingMessage, term: string): Answer => {
    const answer = vocabularyAnswer(vocabDir, term, req.headers.accept);
    if (answer.status === 'not-found') {
      return json(404, errorBody('Not found', 'Not Found', `No vocabulary term '${term}'.`), { Vary: 'Accept' });
    }
    if (answer.status === 'not-acceptable') {
      return json(
        406,
        JSON.stringify({
          status: 'Fail',
          message: `Not Acceptable: available types are ${answer.available.join(', ')}`,
          available: answer.available,
        }),
        { Vary: 'Accept' },
      );
    }
    return { status: 200, body: answer.body, contentType: answer.mediaType, headers: { Vary: 'Accept' } };
  };

  const route = (req: http.IncomingMessage): Answer => {
    let url: RequestUrl;
    try {
      url = parseRequestUrl(req.url ?? '/');
    } catch {
      return json(400, errorBody(INVALID_PARAMETERS, 'Bad Request', 'The request URL has malformed percent-encoding.'));
    }
    const kind = SEARCH_ENDPOINTS[url.path];
    const isVocab = url.path.startsWith(`${vocabPath}/`) && url.path.length > vocabPath.length + 1;
    if (kind === undefined && !isVocab) {
      return json(
        404,
        errorBody('Not found', 'Not Found', `No endpoint at this path. Endpoints: ${Object.keys(SEARCH_ENDPOINTS).join(', ')}, ${vocabPath}/<term>.`),
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(405, errorBody('Method not allowed', 'Method Not Allowed', 'The service only reads: use GET or HEAD.'), {
        Allow: 'GET, HEAD',
      });
    }
    return kind !== undefined ? search(url, kind) : vocabulary(req, url.path.slice(vocabPath.length + 1));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    req.on('error', () => {});
    res.on('error', () => {});
    const decision = faults.active ? faults.next() : NO_FAULT;
    if (decision.latencyMs > 0) await delay(decision.latencyMs);
    if (decision.reset) {
      req.socket.destroy();
      return;
    }
    let answer: Answer;
    if (decision.fail) {
      answer = json(
        decision.fail,
        errorBody(decision.fail === 500 ? 'Internal server error' : 'Service unavailable', decision.fail === 500 ? 'Internal Server Error' : 'Service Unavailable', 'Injected fault.'),
      );
    } else if (decision.throttle) {
      answer = json(429, tooManyRequestsBody(Number(retryAfter)), { 'Retry-After': retryAfter });
    } else {
      try {
        answer = route(req);
      } catch {
        answer = json(500, errorBody('Internal server error', 'Internal Server Error', 'The request could not be answered.'));
      }
    }
    let body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
    if (decision.truncateAt !== undefined && answer.status === 200 && body.length > 1) {
      body = body.subarray(0, Math.max(1, Math.floor(body.length * decision.truncateAt)));
    }
    if (res.destroyed) return;
    res.writeHead(answer.status, {
      'Content-Type': answer.contentType,
      'Content-Length': String(body.length),
      ...answer.headers,
    });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': JSON_TYPE });
        res.end(errorBody('Internal server error', 'Internal Server Error', 'The request could not be answered.'));
      } else res.destroy();
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = errorBody(INVALID_PARAMETERS, 'Bad Request', 'Malformed HTTP request.');
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  return server;
}

function positiveInteger(text: string): number | undefined {
  if (!/^\d{1,12}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
}
