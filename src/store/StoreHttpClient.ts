import { abortError, sleep } from '../abort.js';
import { RetryPolicy, type RetryPolicyOptions } from '../http/RetryPolicy.js';
import { HttpError, ToolkitError, hideSecrets, hideUrlSecrets } from '../errors.js';
import { debugLogsUrls } from '../http/debugLogsUrls.js';
import { proxyFetch } from '../http/proxyFetch.js';
import { unsendableReason } from '../http/unsendableReason.js';
import { basicAuthorization, digestAuthorization, isSupportedDigest, parseAuthChallenges } from './digestAuth.js';
import { decideStoreRetry } from './storeRetry.js';

/** A user name and password for a store. Never printed, logged or stored. */
export interface StoreCredentials {
  user: string;
  password: string;
}

/** Options of {@link StoreHttpClient}. */
export interface StoreHttpClientOptions {
  /** Credentials; the scheme (Basic or Digest) follows the server's `401` challenge. Defaults to none (anonymous). */
  credentials?: StoreCredentials;
  /**
   * The `fetch` to use (inject a fake in tests). Defaults to the global
   * `fetch`, through the proxy that `HTTPS_PROXY`/`HTTP_PROXY` name unless
   * `NO_PROXY` covers the host (read at each request; see `proxyFetch`).
   */
  fetch?: typeof globalThis.fetch;
  /** Retry policy or its options (retries, backoff). Defaults to `new RetryPolicy()` (5 retries, 0.5 s doubling, jitter). */
  retry?: RetryPolicy | RetryPolicyOptions;
  /** Waits between retries (inject in tests). Defaults to an abortable `setTimeout`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Time limit of one request, ms. Defaults to 600000 (10 minutes: a large chunk into a busy store). */
  timeoutMs?: number;
  /** Told of each retry (for a log line). Defaults to nothing. */
  onRetry?: (event: { what: string; attempt: number; delayMs: number; reason: string }) => void;
  /** Told of each request sent (each try, each authentication round), with its answer (`--verbose`). Defaults to nothing. */
  onRequest?: (event: StoreRequestEvent) => void;
}

/** One request a {@link StoreHttpClient} sent, and what came back: {@link StoreHttpClientOptions.onRequest}. */
export interface StoreRequestEvent {
  method: StoreRequest['method'];
  /** The URL, its secrets taken out (`user:password@`, a key in its query: `***`). */
  url: string;
  /** The answer's status; undefined when none came (see `error`). */
  status: number | undefined;
  /** Why no answer came (`timed out`, `ECONNREFUSED ...`), secrets taken out; undefined when one came. */
  error: string | undefined;
  /** Bytes of the request's body. */
  bytesSent: number;
  /** Bytes of the answer's body (0 when none came). */
  bytesReceived: number;
  /** Time from sending to the end of the answer, ms. */
  ms: number;
  /** The try (1 for the first). */
  attempt: number;
}

/** A request to a store. */
export interface StoreRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Names the request in messages ("POST of chunk 3"). Defaults to `METHOD url`. */
  what?: string;
  /** Statuses other than 2xx that count as success (e.g. 404 for a DELETE of a missing graph). Defaults to none. */
  acceptStatuses?: readonly number[];
  /** Time limit of this request (each try), ms. Defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
  /**
   * Whether a try that ran out of time is tried again (by the retry policy). `false`: the request fails at
   * once with code `network` ({@link isDeadlineError}), e.g. a query that a busy store does not answer. Defaults to true.
   */
  retryTimeout?: boolean;
  signal?: AbortSignal;
}

/** Whether `err` is the failure of a request that ran out of time and was not tried again (`retryTimeout: false`). */
export function isDeadlineError(err: unknown): boolean {
  return err instanceof HttpError && isTimeout(err.cause);
}

function isTimeout(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'TimeoutError' || (err.cause instanceof Error && err.cause.name === 'TimeoutError'))
  );
}

/** A store's answer: status, headers, body text. */
export interface StoreResponse {
  status: number;
  headers: Headers;
  text: string;
}

const defaultSleep = sleep;

/**
 * HTTP for triple stores: retries (see {@link decideStoreRetry}) and
 * authentication. With credentials, the first request goes out anonymous; the
 * server's `401` challenge picks the scheme: HTTP Digest (RFC 7616, as
 * Virtuoso's `-auth` endpoints ask) or Basic. The Digest nonce is then reused
 * with a growing nonce count, and a new challenge (stale nonce) is answered
 * once per request. The password never appears in errors.
 */
export class StoreHttpClient {
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly policy: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly credentials: StoreCredentials | undefined;
  private readonly onRetry: StoreHttpClientOptions['onRetry'];
  private readonly onRequest: StoreHttpClientOptions['onRequest'];
  private scheme: 'basic' | 'digest' | undefined;
  private digestChallenge: Readonly<Record<string, string>> | undefined;
  private nonceCount = 0;

  constructor(options: StoreHttpClientOptions = {}) {
    this.fetchFn = options.fetch ?? proxyFetch();
    this.policy = options.retry instanceof RetryPolicy ? options.retry : new RetryPolicy(options.retry);
    this.sleep = options.sleep ?? defaultSleep;
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.credentials = options.credentials;
    this.onRetry = options.onRetry;
    this.onRequest = options.onRequest;
  }

  /** Sends a request, retrying by the policy; resolves with a 2xx (or accepted) answer, else throws {@link HttpError}. */
  async request(req: StoreRequest): Promise<StoreResponse> {
    const what = this.clean(req.what ?? `${req.method} ${req.url}`);
    const shownUrl = hideUrlSecrets(req.url);
    const logged = shownUrl !== req.url ? debugLogsUrls() : undefined;
    if (logged) {
      // Node's debug logs print every request URL: a key in the endpoint's query would be printed.
      throw new ToolkitError(
        `${logged} prints every request URL on stderr, and the store's URL carries a secret in its query (${shownUrl.replace(/&.*$/, '')}): it would be printed. ` +
          'Run without NODE_DEBUG (or leave fetch and undici out of it), or give the store a user and password (`credentials`), which go in a header',
        'usage',
      );
    }
    for (let attempt = 1; ; attempt++) {
      let response: StoreResponse;
      try {
        response = await this.sendWithAuth(req, attempt);
      } catch (err) {
        if (req.signal?.aborted) throw abortError(req.signal);
        const unsendable = unsendableReason(err);
        // No retry can help a request that fetch refuses to send (a port browsers block, a URL it cannot use).
        if (unsendable)
          throw new HttpError(`${what}: cannot be sent: ${unsendable}`, 'usage', shownUrl, undefined, false, {
            cause: err,
          });
        if (req.retryTimeout === false && isTimeout(err)) {
          const seconds = (req.timeoutMs ?? this.timeoutMs) / 1000;
          throw new HttpError(`${what}: no answer in ${seconds} s`, 'network', shownUrl, undefined, true, {
            cause: err,
          });
        }
        const decision = decideStoreRetry(
          { kind: 'network', message: this.clean(networkMessage(err)) },
          attempt,
          this.policy,
          what,
        );
        if (decision.action === 'stop')
          throw new HttpError(decision.message, decision.code, shownUrl, undefined, decision.retryable, { cause: err });
        this.onRetry?.({ what, attempt, delayMs: decision.delayMs, reason: decision.reason });
        await this.sleep(decision.delayMs, req.signal);
        continue;
      }
      if ((response.status >= 200 && response.status < 300) || req.acceptStatuses?.includes(response.status))
        return response;
      const decision = decideStoreRetry(
        {
          kind: 'status',
          status: response.status,
          body: this.clean(response.text),
          retryAfter: response.headers.get('retry-after'),
        },
        attempt,
        this.policy,
        what,
        Date.now(),
        this.credentials !== undefined,
      );
      if (decision.action === 'stop')
        throw new HttpError(decision.message, decision.code, shownUrl, response.status, decision.retryable);
      this.onRetry?.({ what, attempt, delayMs: decision.delayMs, reason: decision.reason });
      await this.sleep(decision.delayMs, req.signal);
    }
  }

  /** One try, answering at most two authentication challenges (the first one, then a stale nonce). */
  private async sendWithAuth(req: StoreRequest, attempt: number): Promise<StoreResponse> {
    for (let round = 0; ; round++) {
      const headers: Record<string, string> = { ...req.headers };
      const authorization = this.authorization(req);
      if (authorization) headers['authorization'] = authorization;
      const response = await this.send(req, headers, attempt);
      if (response.status !== 401 || !this.credentials || round >= 2) return response;
      const challenges = parseAuthChallenges(response.headers.get('www-authenticate') ?? '');
      const digest = challenges.find((c) => c.scheme === 'digest' && isSupportedDigest(c.params));
      const basic = challenges.find((c) => c.scheme === 'basic');
      if (digest) {
        const stale = digest.params['stale']?.toLowerCase() === 'true';
        // Same nonce refused again, not stale: the credentials are wrong.
        if (this.scheme === 'digest' && !stale && this.digestChallenge?.['nonce'] === digest.params['nonce'])
          return response;
        if (this.scheme === 'digest' && !stale && round > 0) return response;
        this.scheme = 'digest';
        this.digestChallenge = digest.params;
        this.nonceCount = 0;
      } else if (basic && this.scheme !== 'basic') {
        this.scheme = 'basic';
      } else {
        return response;
      }
    }
  }

  private authorization(req: StoreRequest): string | undefined {
    if (!this.credentials || !this.scheme) return undefined;
    const { user, password } = this.credentials;
    if (this.scheme === 'basic') return basicAuthorization(user, password);
    const url = new URL(req.url);
    this.nonceCount += 1;
    return digestAuthorization({
      challenge: this.digestChallenge!,
      method: req.method,
      uri: `${url.pathname}${url.search}`,
      user,
      password,
      nc: this.nonceCount,
    });
  }

  private async send(req: StoreRequest, headers: Record<string, string>, attempt: number): Promise<StoreResponse> {
    const timeout = AbortSignal.timeout(req.timeoutMs ?? this.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const sent = performance.now();
    const tell = (status: number | undefined, error: string | undefined, body: string) =>
      this.onRequest?.({
        method: req.method,
        url: this.clean(req.url),
        status,
        error,
        bytesSent: req.body === undefined ? 0 : Buffer.byteLength(req.body),
        bytesReceived: Buffer.byteLength(body),
        ms: performance.now() - sent,
        attempt,
      });
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(req.url, { method: req.method, ...bodyOf(req.body, headers), signal });
      text = await response.text();
    } catch (err) {
      tell(undefined, req.signal?.aborted ? 'cancelled' : this.clean(networkMessage(err)), '');
      throw err;
    }
    tell(response.status, undefined, text);
    return { status: response.status, headers: response.headers, text };
  }

  /**
   * Removes the credentials from a text (a store or proxy may echo the
   * request's headers in its error body): the user, the password and
   * `user:password` in every form (Basic's base64 too), Authorization
   * values, and the secrets URLs carry (user:password@, ?api_key=).
   */
  private clean(text: string): string {
    const c = this.credentials;
    return hideSecrets(
      text,
      c ? [c.user && c.password ? `${c.user}:${c.password}` : undefined, c.password, c.user] : [],
      '***',
    );
  }
}

function networkMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timed out';
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code ? `${code} ${cause.message}` : cause.message;
  }
  return err.message;
}

/** Bodies from this size on are streamed to fetch, in pieces of {@link PIECE}: fetch copies a body of bytes whole. */
const STREAMED = 16 * 2 ** 20;
const PIECE = 2 ** 16;

/**
 * The body and headers of a request as fetch takes them. A large body of bytes (a chunk holding a line of tens
 * of MB) is given as a stream of pieces of it, its length in `content-length` (not sent chunked): fetch copies a
 * body of bytes (the Fetch standard's "extract a body"), measured 140 MB more for a 64 MB body, 87 streamed.
 */
function bodyOf(
  body: Buffer | string | undefined,
  headers: Record<string, string>,
): { body?: string | Uint8Array | AsyncIterable<Uint8Array>; headers: Record<string, string>; duplex?: 'half' } {
  if (body === undefined || typeof body === 'string') return { ...(body !== undefined ? { body } : {}), headers };
  if (body.length < STREAMED) return { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), headers };
  const bytes = body;
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
  }
  return { body: pieces(), headers: { ...headers, 'content-length': String(body.length) }, duplex: 'half' };
}
