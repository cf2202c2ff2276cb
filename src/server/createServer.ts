import http from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { packagePath, sampleCataloguePath } from '../sample/sampleCatalogue.js';
import { JSON_TYPE, jsonAnswer, type Answer } from './Answer.js';
import { resolveKeys } from './apiKeys.js';
import { Catalogue, loadCatalogue } from './Catalogue.js';
import { FaultInjector, type FaultDecision } from './FaultInjector.js';
import { parseRequestUrl, type RequestUrl } from './parseRequestUrl.js';
import { RateLimiter } from './RateLimiter.js';
import { INVALID_PARAMETERS, errorBody, tooManyRequestsBody } from '../contract/statusBodies.js';
import { endpointAtPath, endpointPaths } from '../contract/endpoints.js';
import { searchRoute } from './searchRoute.js';
import type { ServeOptions } from './ServeOptions.js';
import { vocabularyRoute } from './vocabularyRoute.js';

export { SEARCH_ENDPOINTS } from './searchRoute.js';

const DEFAULT_API_MESSAGE = 'This JSON was provided by scholarly-rdf serve (a local copy of the metadata service)';
const NO_FAULT: FaultDecision = { latencyMs: 0, reset: false, throttle: false };
const INTERNAL_ERROR = errorBody(
  'Internal server error',
  'Internal Server Error',
  'The request could not be answered.',
);

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
  const search = searchRoute({
    catalogue: resolveCatalogue(options.catalogue),
    keys: resolveKeys(options.apiKeys, options.keysFile),
    limiter: new RateLimiter(options.rate ?? 0, options.now),
    apiMessage: options.apiMessage ?? DEFAULT_API_MESSAGE,
    cacheSize: Math.max(0, options.cacheSize ?? 64),
    maxQueryLength: options.maxQueryLength,
    maxQueryDepth: options.maxQueryDepth,
    compat: options.compat ?? '2026',
  });
  const faults = new FaultInjector(options.faults);
  const retryAfter = String(Math.max(0, Math.round(options.retryAfter ?? 1)));
  const vocabulary = vocabularyRoute(options.vocabDir ?? packagePath('vocab'));
  const vocabPath = (options.vocabPath ?? '/vocab').replace(/\/+$/, '');

  /** Picks the route of a request. */
  const route = (req: http.IncomingMessage): Answer => {
    let url: RequestUrl;
    try {
      url = parseRequestUrl(req.url ?? '/');
    } catch {
      return jsonAnswer(
        400,
        errorBody(INVALID_PARAMETERS, 'Bad Request', 'The request URL has malformed percent-encoding.'),
      );
    }
    const endpoint = endpointAtPath(url.path);
    const isVocab = url.path.startsWith(`${vocabPath}/`) && url.path.length > vocabPath.length + 1;
    if (endpoint === undefined && !isVocab) {
      return jsonAnswer(
        404,
        errorBody(
          'Not found',
          'Not Found',
          `No endpoint at this path. Endpoints: ${endpointPaths().join(', ')}, ${vocabPath}/<term>.`,
        ),
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return jsonAnswer(
        405,
        errorBody('Method not allowed', 'Method Not Allowed', 'The service only reads: use GET or HEAD.'),
        {
          Allow: 'GET, HEAD',
        },
      );
    }
    return endpoint !== undefined
      ? search(url, endpoint)
      : vocabulary(url.path.slice(vocabPath.length + 1), req.headers.accept);
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
    writeAnswer(res, faultAnswer(decision, retryAfter) ?? answerSafely(route, req), decision.truncateAt);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': JSON_TYPE });
        res.end(INTERNAL_ERROR);
      } else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  return server;
}

/** The answer of an injected failure or throttle, if the decision says so. */
function faultAnswer(decision: FaultDecision, retryAfter: string): Answer | undefined {
  if (decision.fail) {
    const internal = decision.fail === 500;
    return jsonAnswer(
      decision.fail,
      errorBody(
        internal ? 'Internal server error' : 'Service unavailable',
        internal ? 'Internal Server Error' : 'Service Unavailable',
        'Injected fault.',
      ),
    );
  }
  if (decision.throttle) return jsonAnswer(429, tooManyRequestsBody(Number(retryAfter)), { 'Retry-After': retryAfter });
  return undefined;
}

/** The route's answer, or a 500 if it throws. */
function answerSafely(route: (req: http.IncomingMessage) => Answer, req: http.IncomingMessage): Answer {
  try {
    return route(req);
  } catch {
    return jsonAnswer(500, INTERNAL_ERROR);
  }
}

/** Writes an answer; `truncateAt` (an injected fault) cuts the body of a 200 to that fraction. */
function writeAnswer(res: http.ServerResponse, answer: Answer, truncateAt: number | undefined): void {
  let body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  if (truncateAt !== undefined && answer.status === 200 && body.length > 1) {
    body = body.subarray(0, Math.max(1, Math.floor(body.length * truncateAt)));
  }
  if (res.destroyed) return;
  res.writeHead(answer.status, {
    'Content-Type': answer.contentType,
    'Content-Length': String(body.length),
    ...answer.headers,
  });
  res.end(body);
}

/** Answers a request that HTTP could not parse with a 400 (431 for too large headers) and closes the connection. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const body = errorBody(INVALID_PARAMETERS, 'Bad Request', 'Malformed HTTP request.');
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
