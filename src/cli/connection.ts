import { isAbsolute, resolve } from 'node:path';
import { ApiClient, DEFAULT_BASE_URL, type Endpoint } from '../client/ApiClient.js';
import type { ApiClientOptions, RequestEvent } from '../client/ApiClientOptions.js';
import type { Plan } from '../contract/endpoints.js';
import { ToolkitError, redact } from '../errors.js';
import { directFetch, proxyFetch, proxySettings } from '../http/proxyFetch.js';
import type { CliContext } from './CliContext.js';

/** Where to get a key, said whenever one is missing. */
export const NO_KEY_MESSAGE =
  'no API key: pass --api-key KEY or set the SCHOLARLY_API_KEY (or SPRINGERNATURE_API_KEY) environment variable (get a free key at https://dev.springernature.com), ' +
  'or add --sample to run against the bundled sample catalogue offline';

export interface ConnectionOptions {
  sample?: boolean;
  apiKey?: string;
  baseUrl?: string;
  endpoint?: Endpoint;
  plan?: Plan;
  retries?: number;
  rate?: number;
  timeout?: number;
  verbose?: boolean;
}

/** The key in the environment: `$SCHOLARLY_API_KEY`, else the official client's `$SPRINGERNATURE_API_KEY`. */
export function envApiKey(ctx: CliContext): string | undefined {
  return ctx.io.env['SCHOLARLY_API_KEY'] || ctx.io.env['SPRINGERNATURE_API_KEY'] || undefined;
}

/** Both keys of the environment (each kept out of every message, used or not). */
export function envApiKeys(ctx: CliContext): (string | undefined)[] {
  return [ctx.io.env['SCHOLARLY_API_KEY'], ctx.io.env['SPRINGERNATURE_API_KEY']];
}

/**
 * The client options of the connection flags: the key from `--api-key`, else
 * `$SCHOLARLY_API_KEY` (none with `--sample`, which brings its own service).
 */
export function clientOptions(opts: ConnectionOptions, ctx: CliContext): ApiClientOptions & { sample: boolean } {
  const key = opts.apiKey ?? envApiKey(ctx);
  if (opts.sample) {
    if (opts.baseUrl) throw new ToolkitError('--sample and --base-url do not go together', 'usage');
    if (opts.apiKey) throw new ToolkitError("--sample uses the sample service's own key: drop --api-key", 'usage');
  } else if (!key) {
    throw new ToolkitError(NO_KEY_MESSAGE, 'auth');
  }
  return {
    sample: Boolean(opts.sample),
    // The sample service runs in-process on loopback: never through a proxy.
    ...(opts.sample ? {} : { apiKey: key, baseUrl: opts.baseUrl ?? DEFAULT_BASE_URL, fetch: envFetch(ctx) }),
    endpoint: opts.endpoint ?? 'meta-v2',
    ...(opts.plan ? { plan: opts.plan } : {}),
    retryPolicy: { retries: opts.retries ?? 5 },
    ...(opts.rate ? { rate: opts.rate } : {}),
    timeoutMs: (opts.timeout ?? 30) * 1000,
    ...(opts.verbose ? { onRequest: (e: RequestEvent) => ctx.log(requestLine(e)) } : {}),
  };
}

/** One request for `--verbose`: `GET URL&api_key=*** -> 200 (123 ms)`; the key is never in the URL shown (`***`, as every redaction writes it). */
export function requestLine(e: RequestEvent): string {
  const sentKey = e.url.includes('?') ? '&api_key=***' : '?api_key=***';
  const answer = e.status !== undefined ? String(e.status) : e.outcome;
  return `request: GET ${e.url}${sentKey} -> ${answer}${e.outcome === 'bad-body' ? ' (bad body)' : ''} (${Math.round(e.ms)} ms${e.attempt > 1 ? `, try ${e.attempt}` : ''})`;
}

/** A client for the connection flags (starting the in-process sample service when asked); `close` stops it. */
export async function connect(
  opts: ConnectionOptions,
  ctx: CliContext,
): Promise<{ client: ApiClient; key: string | undefined; close: () => Promise<void> }> {
  const { sample, ...options } = clientOptions(opts, ctx);
  if (!sample) return { client: new ApiClient(options), key: options.apiKey, close: async () => undefined };
  const server = await import('../server/index.js');
  const running = await server.startServer({ ...server.sampleCatalogueOptions(), host: '127.0.0.1', port: 0 });
  // The sample key is public: nothing to hide (hiding it would garble texts that contain "sample").
  const client = new ApiClient({
    ...options,
    apiKey: server.SAMPLE_API_KEY,
    baseUrl: running.url,
    keyIsPublic: true,
    fetch: directFetch,
  });
  return { client, key: undefined, close: () => running.close(100) };
}

/**
 * The fetch of a command: through the proxy that the run's `HTTPS_PROXY`/
 * `HTTP_PROXY` name, unless `NO_PROXY` covers the host (a bad proxy variable
 * is a usage error now, before anything runs).
 */
export function envFetch(ctx: CliContext): typeof globalThis.fetch {
  proxySettings(ctx.io.env);
  return proxyFetch(ctx.io.env);
}

export function abs(ctx: CliContext, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return isAbsolute(path) ? path : resolve(ctx.io.cwd, path);
}

/** Wraps an action so every message it lets out has the key removed. */
export async function keySafe(secrets: () => (string | undefined)[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof ToolkitError) {
      const clean = redact(err.message, secrets());
      if (clean !== err.message)
        throw new ToolkitError(clean, err.code, {
          details: JSON.parse(redact(JSON.stringify(err.details), secrets())) as Record<string, unknown>,
        });
    }
    throw err;
  }
}
