import { abortError, sleep } from '../abort.js';
import { HttpError, ToolkitError, hideUrlSecrets, redact } from '../errors.js';
import { debugLogsUrls } from '../http/debugLogsUrls.js';
import { proxyFetch } from '../http/proxyFetch.js';
import { unsendableReason } from '../http/unsendableReason.js';
import type { ApiFacet, RawRecord } from '../record/types.js';
import { RetryPolicy, type RequestOutcome } from '../http/RetryPolicy.js';
import { doiKey } from '../record/recordDoi.js';
import { DEFAULT_BASE_URL, ENDPOINTS, pageSizeLimit, type Endpoint, type Plan } from '../contract/endpoints.js';
import { isNoDataBody } from '../contract/statusBodies.js';
import { doiInQuery } from './doiInQuery.js';
import { isPushback } from './isPushback.js';
import { isNoDataEnvelope, noDataEnvelope } from './noDataEnvelope.js';
import { planLimitError, queryRefusal } from './planLimits.js';
import { RequestPacer } from './RequestPacer.js';
import type {
  ApiClientOptions,
  PageRequest,
  RequestEvent,
  RequestObserver,
  RetryEvent,
  SearchPage,
} from './ApiClientOptions.js';

export { DEFAULT_BASE_URL, MAX_PAGE_SIZE, type Endpoint, type Plan } from '../contract/endpoints.js';

/** Path of each endpoint, relative to the base URL (from the contract, `contract/endpoints.ts`). */
export const ENDPOINT_PATHS: Readonly<Record<Endpoint, string>> = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([name, contract]) => [name, contract.path]),
) as Record<Endpoint, string>;

/** The service's host: it needs a key. */
const SERVICE_HOST = new URL(DEFAULT_BASE_URL).hostname;

/** Said when the service is asked without a key. */
const NO_KEY =
  'no API key: pass `apiKey` (get a free key at https://dev.springernature.com), or use `sample` for the bundled sample catalogue offline';

const defaultSleep = sleep;

export { abortError };

/**
 * The HTTP client of the service's record endpoints: builds URL-encoded
 * requests, retries by {@link RetryPolicy}, decodes bodies as UTF-8 whatever
 * the `Content-Type`, and never lets the API key into an error, event or
 * returned envelope.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly endpoint: Endpoint;
  /** The key's plan when known. */
  readonly plan: Plan | undefined;
  readonly policy: RetryPolicy;
  /** Retries made so far by this client. */
  retries = 0;
  /** Requests sent so far (tries included). */
  requests = 0;
  private readonly apiKey: string | undefined;
  /** The key to remove from texts (none when it is public). */
  private readonly secret: string | undefined;
  private readonly fetchFn: typeof globalThis.fetch;
  /** When requests may start. */
  readonly pacer: RequestPacer;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly onRequest: ((event: RequestEvent) => void) | undefined;

  constructor(options: ApiClientOptions = {}) {
    this.apiKey = options.apiKey || undefined;
    this.secret = options.keyIsPublic ? undefined : this.apiKey;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(this.baseUrl);
    } catch {
      throw new ToolkitError(
        `\`baseUrl\` "${redact(hideUrlSecrets(this.baseUrl), [this.secret])}" is not a URL`,
        'usage',
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ToolkitError(`\`baseUrl\` must be an http(s) URL, not ${url.protocol}`, 'usage');
    // The service answers nothing without a key: refused here, before any request (as the CLI does), not after six tries.
    if (!this.apiKey && url.hostname === SERVICE_HOST) throw new ToolkitError(NO_KEY, 'auth');
    // The service takes its key as api_key; a user:password in the URL would end up in messages.
    if (url.username || url.password)
      throw new ToolkitError(
        '`baseUrl` must not hold a user or password (the key goes in `apiKey` or SCHOLARLY_API_KEY)',
        'usage',
      );
    // A query (an api_key pasted with the URL) would end up in every URL shown, in the state file and the provenance.
    if (url.search || url.hash || (this.secret && redact(this.baseUrl, [this.secret]) !== this.baseUrl)) {
      throw new ToolkitError(
        `\`baseUrl\` must be the service's address only, without a query or fragment (${redact(hideUrlSecrets(this.baseUrl), [this.secret])}): the key goes in \`apiKey\` or SCHOLARLY_API_KEY`,
        'usage',
      );
    }
    // Node's debug logs print every request URL, and the service takes its key in the URL only (seed §5).
    const logged = this.secret ? debugLogsUrls() : undefined;
    if (logged) {
      throw new ToolkitError(
        `${logged} prints every request URL on stderr, and the service takes its key in the URL: the key would be printed. ` +
          'Run without NODE_DEBUG (or leave fetch and undici out of it), or debug against the local sample service (`sample`), whose key is public',
        'usage',
      );
    }
    this.endpoint = options.endpoint ?? 'meta-v2';
    if (!(this.endpoint in ENDPOINTS))
      throw new ToolkitError(
        `\`endpoint\` "${this.endpoint}" is none of ${Object.keys(ENDPOINTS).join(', ')}`,
        'usage',
      );
    this.plan = options.plan;
    this.now = options.clock ?? Date.now;
    this.policy =
      options.retryPolicy instanceof RetryPolicy
        ? options.retryPolicy
        : new RetryPolicy({ ...(options.clock ? { now: options.clock } : {}), ...options.retryPolicy });
    this.fetchFn = options.fetch ?? proxyFetch();
    this.sleep = options.sleep ?? defaultSleep;
    this.pacer =
      options.pacer ??
      new RequestPacer({ ...(options.rate !== undefined ? { rate: options.rate } : {}), now: this.now });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.onRetry = options.onRetry;
    this.onRequest = options.onRequest;
  }

  /** The endpoint URL shown to people: base URL and path, no key. */
  get endpointUrl(): string {
    return `${this.baseUrl}${ENDPOINT_PATHS[this.endpoint]}`;
  }

  /** Removes the key from a text. */
  redact(text: string): string {
    return redact(text, [this.secret]);
  }

  /** Largest page size the endpoint allows the key (its plan's; the premium one when the plan is not known). */
  get maxPageSize(): number {
    return pageSizeLimit(this.endpoint, this.plan);
  }

  /**
   * Refuses (code `plan-limit`) a query that uses a field the key's plan does
   * not allow, before any request; nothing when the plan is not known.
   */
  checkQuery(query: string): void {
    const refusal = this.plan ? queryRefusal(query, this.plan) : undefined;
    if (refusal)
      throw new ToolkitError(`${refusal} (\`plan\` ${this.plan}: checked before any request)`, 'plan-limit', {
        details: { limit: 'query-field', plan: this.plan },
      });
  }

  /** Fetches one page of a search (`s` 1-based); `observer` hears of pushbacks and rate waits. */
  async fetchPage(request: PageRequest, signal?: AbortSignal, observer?: RequestObserver): Promise<SearchPage> {
    if (!Number.isInteger(request.s) || request.s < 1)
      throw new ToolkitError(`start ${request.s} is not a 1-based position`, 'usage');
    const max = pageSizeLimit(this.endpoint);
    if (!Number.isInteger(request.p) || request.p < 1 || request.p > max) {
      throw new ToolkitError(
        `page size ${request.p} is out of range: 1 to ${max}${this.endpoint === 'openaccess' ? ' on the open-access endpoint' : ''}`,
        'usage',
      );
    }
    this.checkQuery(request.q);
    const params: [string, string][] = [
      ['q', request.q],
      ['s', String(request.s)],
      ['p', String(request.p)],
    ];
    const envelope = await this.getJson(ENDPOINT_PATHS[this.endpoint], params, signal, observer, request);
    return this.toPage(envelope, request);
  }

  /**
   * Looks up one record by DOI. On the `metadata-v1` endpoint the query is
   * `doi=<doi>`, on the others `doi:<doi>`. Returns `undefined` when the
   * service has no such record (an empty page, or since 2026 its "no data" 404).
   */
  async getRecord(doi: string, signal?: AbortSignal): Promise<{ record: RawRecord | undefined; page: SearchPage }> {
    const lookup = ENDPOINTS[this.endpoint].doiLookup;
    const q = `${lookup}${doiInQuery(doi)}`;
    const params: [string, string][] = [['q', q]];
    if (lookup === 'doi:') params.push(['s', '1'], ['p', '1']);
    const envelope = await this.getJson(ENDPOINT_PATHS[this.endpoint], params, signal, undefined, { q, s: 1, p: 1 });
    const page = this.toPage(envelope, { q, s: 1, p: 1 });
    const wanted = doiKey(doi);
    const record =
      page.records.find((r) => typeof r['doi'] === 'string' && doiKey(r['doi']) === wanted) ??
      (page.records.length === 1 && typeof page.records[0]!['doi'] !== 'string' ? page.records[0] : undefined);
    return { record, page };
  }

  private toPage(envelope: Record<string, unknown>, request: PageRequest): SearchPage {
    const result = Array.isArray(envelope['result'])
      ? (envelope['result'][0] as Record<string, unknown> | undefined)
      : undefined;
    // An empty total ("", as any scalar of the service may be) is no total: Number('') would say 0 and end the harvest.
    const rawTotal = result?.['total'];
    const totalNumber =
      typeof rawTotal === 'string' && /^\s*\d+\s*$/.test(rawTotal)
        ? Number(rawTotal)
        : typeof rawTotal === 'number' && Number.isInteger(rawTotal)
          ? rawTotal
          : NaN;
    const nextPage = typeof envelope['nextPage'] === 'string' ? envelope['nextPage'] : undefined;
    let nextStart: number | undefined;
    if (nextPage) {
      const s = new URL(nextPage, `${this.baseUrl}/`).searchParams.get('s');
      const n = s === null ? NaN : Number(s);
      if (Number.isInteger(n) && n > request.s) nextStart = n;
    }
    const records = (envelope['records'] as unknown[]).filter(
      (r): r is RawRecord => typeof r === 'object' && r !== null && !Array.isArray(r),
    );
    let withoutKey: Record<string, unknown> | undefined;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the page's lazy getter below reads the client
    const client = this;
    return {
      query: typeof envelope['query'] === 'string' ? envelope['query'] : request.q,
      start: request.s,
      pageLength: request.p,
      total: Number.isFinite(totalNumber) && totalNumber >= 0 ? totalNumber : undefined,
      records,
      nextStart,
      apiMessage: typeof envelope['apiMessage'] === 'string' ? envelope['apiMessage'] : undefined,
      ...(isNoDataEnvelope(envelope) ? { noData: true as const } : {}),
      facets: Array.isArray(envelope['facets']) ? (envelope['facets'] as ApiFacet[]) : [],
      // built on first use only: copying every page's envelope would cost a harvest time
      get envelope() {
        withoutKey ??= client.withoutKey(envelope);
        return withoutKey;
      },
    };
  }

  /** A copy of an envelope with `apiKey` removed and the key redacted everywhere else. */
  private withoutKey(envelope: Record<string, unknown>): Record<string, unknown> {
    const { apiKey: _dropped, ...rest } = envelope;
    if (!this.secret) return rest;
    return JSON.parse(this.redact(JSON.stringify(rest))) as Record<string, unknown>;
  }

  /** GETs a JSON envelope with retries. Errors name the URL without the key. */
  private async getJson(
    path: string,
    params: [string, string][],
    signal: AbortSignal | undefined,
    observer: RequestObserver | undefined,
    request: PageRequest,
  ): Promise<Record<string, unknown>> {
    const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    const shownUrl = `${this.baseUrl}${path}?${query}`;
    const url = this.apiKey ? `${shownUrl}&api_key=${encodeURIComponent(this.apiKey)}` : shownUrl;
    let servedUntil = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortError(signal);
      await this.pace(servedUntil, signal, observer);
      this.requests++;
      const epoch = this.pacer.send();
      const sent = this.now();
      const outcome = await this.tryOnce(url, signal);
      this.onRequest?.({
        url: shownUrl,
        attempt,
        status: outcome.kind === 'ok' ? 200 : outcome.kind === 'status' ? outcome.status : undefined,
        outcome: outcome.kind,
        ms: this.now() - sent,
      });
      if (outcome.kind === 'ok') {
        this.pacer.succeeded();
        return outcome.json;
      }
      if (isPushback(outcome)) observer?.onPushback?.(outcome.status);
      const decision = this.policy.decide(outcome, attempt);
      if (decision.action === 'stop') {
        const status = outcome.kind === 'status' ? outcome.status : undefined;
        if (decision.code === 'plan-limit' && outcome.kind === 'status') {
          throw planLimitError({
            request,
            endpoint: this.endpoint,
            body: outcome.body,
            url: shownUrl,
            redact: (t) => this.redact(t),
          });
        }
        throw new HttpError(
          this.redact(`${decision.message} [GET ${shownUrl}]`),
          decision.code,
          shownUrl,
          status,
          decision.retryable,
        );
      }
      // a pause the service asked for (a 429, or a pushback with Retry-After) holds every request of the client
      if (isPushback(outcome) && (outcome.status === 429 || outcome.retryAfter))
        servedUntil = this.pacer.pushback(epoch, outcome.status, decision.delayMs);
      this.retries++;
      this.onRetry?.({ attempt, delayMs: decision.delayMs, reason: this.redact(decision.reason), url: shownUrl });
      await this.sleep(decision.delayMs, signal);
    }
  }

  /** Waits for the pacer's next start (again when a pause asked for meanwhile outlasts it). */
  private async pace(
    servedUntil: number,
    signal: AbortSignal | undefined,
    observer: RequestObserver | undefined,
  ): Promise<void> {
    for (;;) {
      const slot = this.pacer.reserve(servedUntil);
      if (slot.waitMs <= 0) return;
      observer?.onRateWait?.(slot.waitMs);
      await this.sleep(slot.waitMs, signal);
      if (this.pacer.pausedUntil <= Math.max(slot.at, servedUntil)) return;
    }
  }

  private async tryOnce(
    url: string,
    signal?: AbortSignal,
  ): Promise<RequestOutcome | { kind: 'ok'; json: Record<string, unknown> }> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.fetchFn(url, { signal: combined, headers: { accept: 'application/json' } });
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      const unsendable = unsendableReason(err);
      // No retry can help a request that fetch refuses to send (a port browsers block, a URL it cannot use).
      if (unsendable)
        throw new HttpError(
          this.redact(`cannot send a request to ${this.baseUrl}: ${unsendable}`),
          'usage',
          this.baseUrl,
          undefined,
          false,
        );
      return { kind: 'network', message: this.describeNetworkError(err, timeout.aborted) };
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      if (response.status !== 200)
        return { kind: 'status', status: response.status, body: '', retryAfter: response.headers.get('retry-after') };
      return { kind: 'network', message: `body cut off: ${this.describeNetworkError(err, timeout.aborted)}` };
    }
    // UTF-8 whatever the Content-Type says (the service labels JSON text/html).
    let text = new TextDecoder('utf-8').decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    // Since 2026 a query with no hits is a 404 with the service's "no data" body: an empty result, not an error.
    if (response.status === 404 && isNoDataBody(text)) return { kind: 'ok', json: noDataEnvelope(text) };
    if (response.status !== 200) {
      return {
        kind: 'status',
        status: response.status,
        body: this.redact(text),
        retryAfter: response.headers.get('retry-after'),
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const type = response.headers.get('content-type') ?? 'no Content-Type';
      return { kind: 'bad-body', message: `the body is not JSON (truncated?): ${bytes.length} bytes of ${type}` };
    }
    if (
      typeof json !== 'object' ||
      json === null ||
      Array.isArray(json) ||
      !Array.isArray((json as Record<string, unknown>)['records'])
    ) {
      return { kind: 'bad-body', message: 'the JSON has no "records" array' };
    }
    return { kind: 'ok', json: json as Record<string, unknown> };
  }

  private describeNetworkError(err: unknown, timedOut: boolean): string {
    if (timedOut) return `no answer within ${Math.round(this.timeoutMs / 1000)} s`;
    const e = err as { message?: string; cause?: { code?: string; message?: string } };
    const code = e?.cause?.code;
    const message = e?.cause?.message ?? e?.message ?? String(err);
    return this.redact(code ? `${code} ${message}` : message);
  }
}
