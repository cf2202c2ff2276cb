import type { Readable } from 'node:stream';

/** What {@link parseRdf} reads: a whole document, a byte or text stream, or any iterable of chunks. */
export type RdfInput = string | Readable | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
