import { HttpError, ToolkitError, type ErrorCode } from '../errors.js';
import type { DocumentLoader } from '../parse/documentLoader.js';

/** How a term is asked for: the Accept header, the fetch, the cancel signal, the time limit, the JSON-LD contexts' loader. */
export interface TermRequest {
  accept: string;
  fetch: typeof globalThis.fetch;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  documentLoader: DocumentLoader;
}

/** An error after which the extension fallback may be tried (404, 406, HTML without RDF). */
export class FallbackAllowed extends Error {
  constructor(readonly error: HttpError) {
    super(error.message);
  }
}

/** One GET with the Accept header, a timeout covering headers and body, and errors that name the URL. */
export async function getTermDocument(url: string, ctx: TermRequest): Promise<{ response: Response; body: string }> {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const what = `GET ${url} (Accept: ${ctx.accept})`;
  try {
    const response = await ctx.fetch(url, { headers: { accept: ctx.accept }, redirect: 'follow', signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      if (response.status === 404) {
        throw new FallbackAllowed(
          new HttpError(`${what}: ${status}: the vocabulary has no such term`, 'not-found', url, 404, false),
        );
      }
      if (response.status === 406) {
        throw new FallbackAllowed(
          new HttpError(
            `${what}: ${status}: the server offers none of the media types asked for`,
            'not-acceptable',
            url,
            406,
            false,
          ),
        );
      }
      const code: ErrorCode = 'http-status';
      const retryable = response.status === 429 || response.status >= 500;
      throw new HttpError(`${what}: ${status}`, code, url, response.status, retryable);
    }
    return { response, body: await response.text() };
  } catch (err) {
    if (err instanceof FallbackAllowed || err instanceof ToolkitError) throw err;
    if (ctx.signal?.aborted) throw new ToolkitError(`${what}: cancelled`, 'aborted', { cause: err });
    if (timeout.aborted) {
      throw new HttpError(
        `${what}: no complete answer within ${ctx.timeoutMs} ms (timed out)`,
        'network',
        url,
        undefined,
        true,
        { cause: err },
      );
    }
    const cause = (err as { cause?: { message?: string; code?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new HttpError(`${what}: network error (${detail})`, 'network', url, undefined, true, { cause: err });
  }
}
