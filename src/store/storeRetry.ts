import {
  parseRetryAfter,
  serviceMessageOf,
  type RequestOutcome,
  type RetryDecision,
  type RetryPolicy,
} from '../http/RetryPolicy.js';

/**
 * The retry rules for requests to a triple store, as a pure function (the
 * harvest client's rules, after Comunica's `ActorHttpRetry`, with the store's
 * own stop messages):
 *
 * | outcome | decision |
 * |---|---|
 * | 429, 503 | wait `Retry-After` (or back off) and retry; stop `http-status` when retries run out or the wait is longer than `maxRetryAfterMs` |
 * | other 5xx | exponential backoff with jitter; stop `http-status` |
 * | network failure, timeout | backoff; stop `network` |
 * | 401 | stop `auth` (credentials missing or refused) |
 * | 403 | stop `auth` (the user may not write) |
 * | 404 | stop `not-found` (check the endpoint and --store) |
 * | 413 | stop `http-status` (lower `chunkTriples`) |
 * | other 4xx | stop `http-status` with the store's message |
 *
 * `what` names the request in messages ("POST of chunk 3 to <url>").
 */
export function decideStoreRetry(
  outcome: RequestOutcome,
  attempt: number,
  policy: RetryPolicy,
  what: string,
  now = Date.now(),
  credentialsSent = false,
): RetryDecision {
  const canRetry = attempt <= policy.retries;
  const tries = `${attempt} ${attempt === 1 ? 'try' : 'tries'}`;
  if (outcome.kind !== 'status') {
    if (canRetry) return { action: 'retry', delayMs: policy.backoffMs(attempt), reason: `network: ${outcome.message}` };
    return {
      action: 'stop',
      code: 'network',
      retryable: true,
      message: `${what} failed after ${tries}: ${outcome.message}; is the store running and \`endpoint\` right?`,
    };
  }
  const { status } = outcome;
  const said = storeMessageOf(outcome.body);
  const detail = said ? `: ${said}` : '';
  if (status === 429 || status === 503) {
    const wait = parseRetryAfter(outcome.retryAfter, now);
    if (wait !== undefined && wait > policy.maxRetryAfterMs) {
      return {
        action: 'stop',
        code: 'http-status',
        retryable: true,
        message: `${what}: the store is busy (${status}) and asks to wait ${Math.round(wait / 1000)} s`,
      };
    }
    if (canRetry) return { action: 'retry', delayMs: wait ?? policy.backoffMs(attempt), reason: `${status} busy` };
    return {
      action: 'stop',
      code: 'http-status',
      retryable: true,
      message: `${what}: the store stayed busy (${status}${detail}) after ${tries}`,
    };
  }
  if (status >= 500) {
    if (canRetry) return { action: 'retry', delayMs: policy.backoffMs(attempt), reason: `${status} server error` };
    return {
      action: 'stop',
      code: 'http-status',
      retryable: true,
      message: `${what} failed with ${status}${detail} after ${tries}`,
    };
  }
  if (status === 401) {
    const hint = credentialsSent
      ? 'the store refused the user and password given (401' + detail + '); check them'
      : 'the store wants a user and password (401' +
        detail +
        '); pass `credentials` or SCHOLARLY_STORE_USER/SCHOLARLY_STORE_PASSWORD';
    return { action: 'stop', code: 'auth', retryable: false, message: `${what}: ${hint}` };
  }
  if (status === 403) {
    return {
      action: 'stop',
      code: 'auth',
      retryable: false,
      message: `${what}: the store forbids this (403${detail}); the user needs write rights (Virtuoso: GRANT SPARQL_UPDATE TO "SPARQL", or pass credentials)`,
    };
  }
  if (status === 404) {
    return {
      action: 'stop',
      code: 'not-found',
      retryable: false,
      message: `${what}: not found (404${detail}); check \`endpoint\` and \`store\``,
    };
  }
  if (status === 413) {
    return {
      action: 'stop',
      code: 'http-status',
      retryable: false,
      message: `${what}: the store refused the request size (413${detail}); lower \`chunkTriples\``,
    };
  }
  return {
    action: 'stop',
    code: 'http-status',
    retryable: false,
    message: `${what}: the store rejected the request (${status}${detail})`,
  };
}

/** A short form of a store's error body (HTML stripped, one line, at most 300 characters). */
export function storeMessageOf(body: string): string | undefined {
  const text = serviceMessageOf(body.length > 4000 ? body.slice(0, 4000) : body);
  if (!text) return undefined;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
