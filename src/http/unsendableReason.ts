import { ToolkitError } from '../errors.js';

/** Why fetch refused to send a request at all (undici: `bad port`, `unknown scheme`, an invalid URL, credentials in the URL; a bad proxy variable), else undefined. */
export function unsendableReason(err: unknown): string | undefined {
  // A proxy variable that names no proxy (see proxyFetch): no request can go out until it is fixed.
  if (err instanceof ToolkitError && err.code === 'usage') return err.message;
  const cause = (err as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  if (cause?.code === 'ERR_INVALID_URL') return 'not a valid URL';
  if (cause?.message === 'bad port')
    return 'fetch refuses this port (one of the ports browsers block); use another port';
  if (cause?.message === 'unknown scheme') return 'not an http(s) URL';
  // Thrown by fetch itself (a TypeError, its message quoting the URL and so the password): never retried, never shown.
  const message = (err as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && message.includes('includes credentials')) {
    return 'the URL holds a user name or password; give them apart (for load: `user` and $SCHOLARLY_STORE_PASSWORD)';
  }
  return undefined;
}
