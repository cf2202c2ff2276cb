import { JSONP_TYPE, jsonAnswer, type Answer } from './Answer.js';
import type { Catalogue } from './Catalogue.js';
import { evaluateQuery } from './evaluateQuery.js';
import { parseQuery, QuerySyntaxError } from './parseQuery.js';
import type { RequestUrl } from './parseRequestUrl.js';
import type { RateLimiter } from './RateLimiter.js';
import { allEndpoints, type EndpointContract, type EnvelopeKind } from '../contract/endpoints.js';
import { refusedTerms } from '../contract/queryFields.js';
import {
  INVALID_PARAMETERS,
  MISSING_Q,
  NO_DATA_BODY,
  UNAUTHORIZED_BODY,
  errorBody,
  premiumFieldBody,
  premiumPageSizeBody,
  tooManyRequestsBody,
} from '../contract/statusBodies.js';
import { ResultCache, type CachedResult } from './ResultCache.js';
import { XML_TYPE, searchPageJats } from './jatsResponse.js';
import { facetsOf, searchPageJson } from './searchResponse.js';
import type { KeyPlan, ServiceCompat } from './ServeOptions.js';
import { intersect } from './sortedSets.js';

/** The search endpoints' paths and the envelope each answers with (from the contract, `contract/endpoints.ts`). */
export const SEARCH_ENDPOINTS: Readonly<Record<string, EnvelopeKind>> = Object.fromEntries(
  allEndpoints().flatMap((contract) => [contract.path, ...contract.aliases].map((path) => [path, contract.envelope])),
);

const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MAX_START = 1_000_000_000;

/** What the search endpoints are made of. */
export interface SearchRouteOptions {
  catalogue: Catalogue;
  /** The plan of each API key. */
  keys: ReadonlyMap<string, KeyPlan>;
  limiter: RateLimiter;
  /** The `apiMessage` of the pages. */
  apiMessage: string;
  /** Results of the latest queries kept; 0 keeps none. */
  cacheSize: number;
  /** Longest query accepted (see `parseQuery`; its default when undefined). */
  maxQueryLength?: number | undefined;
  /** Deepest nesting accepted (see `parseQuery`; its default when undefined). */
  maxQueryDepth?: number | undefined;
  /** Which year's service to answer as. */
  compat: ServiceCompat;
}

/** A search request whose parameters passed the checks. */
interface SearchRequest {
  apiKey: string;
  q: string;
  s: number;
  p: number;
  callback: string;
}

/**
 * The search endpoints (see {@link SEARCH_ENDPOINTS}): checks the key, the
 * rate and the parameters (the page size and query fields the key's plan
 * allows), evaluates the query (or takes its result from the cache) and
 * answers with a page of records in the endpoint's envelope; since 2026 a
 * query with no hits is a 404 "No data was found for the given query.".
 */
export function searchRoute(options: SearchRouteOptions): (url: RequestUrl, endpoint: EndpointContract) => Answer {
  const { catalogue } = options;
  const cache = new ResultCache(options.cacheSize);
  let openAccessIds: Int32Array | undefined;
  const resultOf = (q: string, endpoint: EndpointContract): CachedResult | Answer => {
    const v1 = endpoint.envelope === 'meta-v1' || endpoint.envelope === 'articles-v1';
    const cacheKey = `${v1 ? 1 : 2}${endpoint.openAccessOnly ? 'o' : ''}\u0000${q}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    let tree;
    try {
      tree = parseQuery(q, {
        allowEquals: v1,
        ...(options.maxQueryLength !== undefined ? { maxLength: options.maxQueryLength } : {}),
        ...(options.maxQueryDepth !== undefined ? { maxDepth: options.maxQueryDepth } : {}),
      });
    } catch (err) {
      if (err instanceof QuerySyntaxError) {
        return jsonAnswer(
          400,
          errorBody(`Invalid query: ${err.reason} at position ${err.position + 1}`, 'Bad Request', `Query: ${q}`),
        );
      }
      throw err;
    }
    let ids = evaluateQuery(catalogue, tree);
    if (endpoint.openAccessOnly)
      ids = intersect(ids, (openAccessIds ??= evaluateQuery(catalogue, parseQuery('openaccess:true'))));
    const result: CachedResult = { ids };
    cache.set(cacheKey, result);
    return result;
  };

  return (url, endpoint) => {
    const kind = endpoint.envelope;
    const request = checkRequest(url.params, endpoint, options);
    if (isAnswer(request)) return request;
    const { q, s, p, callback } = request;
    const result = resultOf(q, endpoint);
    if (isAnswer(result)) return result;
    if (result.ids.length === 0 && endpoint.emptyIs404 && options.compat === '2026')
      return jsonAnswer(404, NO_DATA_BODY);
    if (kind === 'jats') {
      const xml = searchPageJats(catalogue, {
        apiMessage: options.apiMessage,
        query: q,
        apiKey: request.apiKey,
        s,
        p,
        ids: result.ids,
      });
      return { status: 200, body: xml, contentType: XML_TYPE };
    }
    if (kind !== 'articles-v1' && !result.facets && s - 1 < result.ids.length)
      result.facets = facetsOf(catalogue, result.ids);
    const body = searchPageJson(catalogue, {
      kind,
      path: url.path,
      apiMessage: options.apiMessage,
      query: q,
      apiKey: request.apiKey,
      callback,
      s,
      p,
      ids: result.ids,
      ...(result.facets ? { facets: result.facets } : {}),
    });
    if (callback !== '') return { status: 200, body: `${callback}(${body})`, contentType: JSONP_TYPE };
    return jsonAnswer(200, body);
  };
}

function isAnswer<T extends object>(value: T | Answer): value is Answer {
  return 'contentType' in value;
}

/** The request's key, rate and parameters checked in the order the service checks them: the request, or the error to answer. */
function checkRequest(
  params: ReadonlyMap<string, string>,
  endpoint: EndpointContract,
  options: SearchRouteOptions,
): SearchRequest | Answer {
  const apiKey = params.get('api_key');
  const plan = apiKey === undefined ? undefined : options.keys.get(apiKey);
  if (apiKey === undefined || plan === undefined) return jsonAnswer(401, UNAUTHORIZED_BODY);
  const wait = options.limiter.take(apiKey);
  if (wait > 0) return jsonAnswer(429, tooManyRequestsBody(wait), { 'Retry-After': String(wait) });
  const q = params.get('q');
  if (q === undefined || q.trim() === '') {
    return jsonAnswer(
      400,
      errorBody(MISSING_Q, 'Bad Request', 'The query parameter q is required and may not be empty.'),
    );
  }
  const sRaw = params.get('s') ?? '1';
  const pRaw = params.get('p') ?? '10';
  const s = positiveInteger(sRaw);
  const p = positiveInteger(pRaw);
  if (s === undefined || p === undefined || s > MAX_START) {
    const which = s === undefined || s > MAX_START ? `s='${sRaw}'` : `p='${pRaw}'`;
    return jsonAnswer(
      400,
      errorBody(
        INVALID_PARAMETERS,
        'Bad Request',
        `${which}: s and p must be whole numbers of at least 1 (s is 1-based).`,
      ),
    );
  }
  const callback = params.get('callback') ?? '';
  if (callback !== '' && (callback.length > 128 || !CALLBACK.test(callback))) {
    return jsonAnswer(
      400,
      errorBody(INVALID_PARAMETERS, 'Bad Request', 'callback must be a JavaScript identifier (a.b.c).'),
    );
  }
  const limit = endpoint.pageSizes[plan];
  if (p > limit) return jsonAnswer(403, premiumPageSizeBody(p, limit, plan));
  if (options.compat === '2026') {
    const refused = refusedTerms(q, plan);
    if (refused.length > 0) return jsonAnswer(403, premiumFieldBody(refused[0]!.field));
  }
  return { apiKey, q, s, p, callback };
}

function positiveInteger(text: string): number | undefined {
  if (!/^\d{1,12}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
}
