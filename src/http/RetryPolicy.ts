import { isPlanLimitBody } from '../contract/statusBodies.js';
import type { ErrorCode } from '../errors.js';

/**
 * What happened to one request, as the retry policy sees it. Pure data: the
 * client turns responses and network failures into outcomes, the policy turns
 * outcomes into decisions.
 */
export type RequestOutcome =
  /** An HTTP answer other than a usable 200 (the body as text, for the service's message). */
  | { kind: 'status'; status: number; body: string; retryAfter?: string | null }
  /** The connection failed: reset, refused, timed out, dropped mid-body. */
  | { kind: 'network'; message: string }
  /** A 200 whose body is truncated or not the JSON expected. */
  | { kind: 'bad-body'; message: string };

/** What to do after an outcome. */
export type RetryDecision =
  | { action: 'retry'; delayMs: number; reason: string }
  | { action: 'stop'; code: ErrorCode; message: string; retryable: boolean };

/** Options of {@link RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Retries after the first try (so `retries + 1` tries in all). Defaults to 5. */
  retries?: number;
  /** First backoff delay in ms; doubles on each retry. Defaults to 500. */
  baseDelayMs?: number;
  /** Largest backoff delay in ms. Defaults to 30000. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` (ms) the client waits for; a longer one means the
   * daily quota is spent and the harvest stops cleanly (code `quota`).
   * Defaults to 120000.
   */
  maxRetryAfterMs?: number;
  /** Source of randomness in [0, 1) for jitter. Defaults to `Math.random`. */
  random?: () => number;
  /** Clock for HTTP-date `Retry-After` values. Defaults to `Date.now`. */
  now?: () => number;
}

const HOW_TO_KEY =
  'pass a valid key with `apiKey` or the SCHOLARLY_API_KEY environment variable (keys are issued at https://dev.springernature.com), or use `sample` for the bundled offline catalogue';

/**
 * The retry rules of HTTP requests, as data plus small pure functions (after
 * Comunica's `ActorHttpRetry`): the retry budget, backoff and longest
 * `Retry-After` wait are shared by the harvest client and the store client
 * (`store/storeRetry.ts` decides with them); {@link RetryPolicy.decide} is the
 * harvest client's table:
 *
 * | outcome | decision |
 * |---|---|
 * | 401 | stop `auth` with the service's message |
 * | 403 "premium feature" | stop `plan-limit` with the service's message (the client names the page size or query field) |
 * | 403 other (throttled, quota) | retry like 429; if it persists, stop `quota` |
 * | 429 | wait `Retry-After` (or back off) and retry; if it persists or the wait is longer than `maxRetryAfterMs`, stop `quota` |
 * | 5xx | exponential backoff with jitter; stop `http-status` when retries run out |
 * | network failure, timeout | backoff; stop `network` |
 * | truncated / non-JSON body | backoff; stop `bad-response` |
 * | 404 | stop `not-found` (the client takes the 2026 "No data was found" 404 as an empty result before asking) |
 * | other 4xx (400 "Invalid parameters found", ...) | stop `http-status` with the service's message |
 */
export class RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: RetryPolicyOptions = {}) {
    this.retries = options.retries ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** Backoff before retry number `attempt` (1-based): `base * 2^(attempt-1)`, capped, with "equal jitter" (half fixed, half random). */
  backoffMs(attempt: number): number {
    const exp = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(exp / 2 + (exp / 2) * this.random());
  }

  /**
   * Decides what to do after `outcome`, which happened on try number
   * `attempt` (1 for the first try).
   */
  decide(outcome: RequestOutcome, attempt: number): RetryDecision {
    const canRetry = attempt <= this.retries;
    const tries = `${attempt} ${attempt === 1 ? 'try' : 'tries'}`;
    if (outcome.kind === 'network') {
      if (canRetry) return { action: 'retry', delayMs: this.backoffMs(attempt), reason: `network: ${outcome.message}` };
      return {
        action: 'stop',
        code: 'network',
        retryable: true,
        message: `network failure after ${tries}: ${outcome.message}; check the connection or \`baseUrl\`, then run again (with \`resume\` for an export)`,
      };
    }
    if (outcome.kind === 'bad-body') {
      if (canRetry)
        return { action: 'retry', delayMs: this.backoffMs(attempt), reason: `bad response: ${outcome.message}` };
      return {
        action: 'stop',
        code: 'bad-response',
        retryable: true,
        message: `the service sent an unusable response ${tries} in a row: ${outcome.message}`,
      };
    }
    const { status } = outcome;
    const serviceMessage = serviceMessageOf(outcome.body);
    const said = serviceMessage ? `: ${serviceMessage}` : '';
    if (status === 401) {
      return {
        action: 'stop',
        code: 'auth',
        retryable: false,
        message: `the service refused the API key (401${said}); ${HOW_TO_KEY}`,
      };
    }
    if (status === 403 && isPlanLimitBody(outcome.body)) {
      return {
        action: 'stop',
        code: 'plan-limit',
        retryable: false,
        message: `the request is beyond the API key's plan (403${said}); a basic key allows at most 25 records per page: lower \`pageSize\``,
      };
    }
    if (status === 429 || status === 403) {
      const wait = parseRetryAfter(outcome.retryAfter, this.now());
      if (wait !== undefined && wait > this.maxRetryAfterMs) {
        return {
          action: 'stop',
          code: 'quota',
          retryable: true,
          message: `the service's quota is used up (${status}${said}; it asks to wait ${Math.round(wait / 1000)} s); run again later with \`resume\``,
        };
      }
      if (canRetry)
        return { action: 'retry', delayMs: wait ?? this.backoffMs(attempt), reason: `${status} rate limited` };
      return {
        action: 'stop',
        code: 'quota',
        retryable: true,
        message: `the service keeps refusing requests (${status}${said}) after ${tries}: the rate limit or daily quota is used up; run again later with \`resume\`, or lower \`rate\``,
      };
    }
    if (status >= 500) {
      if (canRetry) return { action: 'retry', delayMs: this.backoffMs(attempt), reason: `${status} server error` };
      return {
        action: 'stop',
        code: 'http-status',
        retryable: true,
        message: `the service failed with ${status}${said} after ${tries}; run again later (with \`resume\` for an export)`,
      };
    }
    if (status === 404) {
      return {
        action: 'stop',
        code: 'not-found',
        retryable: false,
        message: `not found (404${said}); check \`baseUrl\``,
      };
    }
    return {
      action: 'stop',
      code: 'http-status',
      retryable: false,
      message: `the service rejected the request (${status}${said}); check the query and the paging options`,
    };
  }
}

/** The service's own message from an error body (`message`, `error_description`, ...), or a short excerpt of a non-JSON body. */
export function serviceMessageOf(body: string): string | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const parts: string[] = [];
    const add = (v: unknown) => {
      if (typeof v === 'string' && v.trim() !== '' && !parts.includes(v.trim())) parts.push(v.trim());
    };
    add(json['message']);
    const error = json['error'];
    if (error && typeof error === 'object') add((error as Record<string, unknown>)['error_description']);
    else add(error);
    add(json['error_description']);
    if (parts.length > 0) return parts.join(' — ');
  } catch {
    // not JSON: fall through to an excerpt
  }
  // Tags go, the placeholder of a redacted key stays (the body is redacted before it comes here).
  const oneLine = text
    .replace(/<(?!API_KEY>)[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine || undefined;
}

/** Parses a `Retry-After` value (delay in seconds or an HTTP date) into ms; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
