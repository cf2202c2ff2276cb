/** Why fetch refused to send a request at all (undici: `bad port`, `unknown scheme`, an invalid URL), else undefined. */
export function unsendableReason(err: unknown): string | undefined {
  const cause = (err as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  if (cause?.code === 'ERR_INVALID_URL') return 'not a valid URL';
  if (cause?.message === 'bad port') return 'fetch refuses this port (one of the ports browsers block); use another port';
  if (cause?.message === 'unknown scheme') return 'not an http(s) URL';
  return undefined;
}
