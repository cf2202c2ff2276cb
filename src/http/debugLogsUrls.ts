import { debuglog } from 'node:util';

/**
 * Whether Node's debug logs print request URLs, and which setting makes them:
 * `NODE_DEBUG=fetch` or `NODE_DEBUG=undici` (or a pattern that covers one,
 * `*`, `fet*`) makes Node's fetch and the undici package write every request
 * URL, query included, to stderr. Undefined when they do not. Node reads
 * `NODE_DEBUG` once, when the process starts: changing it later changes
 * nothing, so neither does it change this answer.
 */
export function debugLogsUrls(): string | undefined {
  for (const section of ['fetch', 'undici']) {
    if (debuglog(section).enabled) return `NODE_DEBUG=${process.env['NODE_DEBUG'] ?? section}`;
  }
  return undefined;
}
