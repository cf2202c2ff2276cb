import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatInfo } from '../formats.js';
import { TERM_FORMATS } from '../vocabulary/acceptHeader.js';
import { negotiate } from '../vocabulary/negotiate.js';

/** The representations of a vocabulary term, in order of preference (JSON-LD is the default). */
export const VOCAB_REPRESENTATIONS: readonly { mediaType: string; extension: string }[] = TERM_FORMATS.map((f) => ({
  mediaType: formatInfo(f).mediaType,
  extension: `.${formatInfo(f).extensions[0]!}`,
}));

const TERM_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

/** The outcome of asking for a term. */
export type VocabularyAnswer =
  | { status: 'not-found' }
  | { status: 'not-acceptable'; available: string[] }
  | { status: 'ok'; mediaType: string; body: Buffer };

/**
 * Picks the representation of a term (`pagination`) for an `Accept` header,
 * from the files `<dir>/<term>.jsonld|.nt|.ttl|.rdf` as they are on disk at
 * the time of the request.
 */
export function vocabularyAnswer(dir: string, term: string, accept: string | undefined): VocabularyAnswer {
  if (!TERM_NAME.test(term)) return { status: 'not-found' };
  const available = VOCAB_REPRESENTATIONS.filter((r) => existsSync(join(dir, term + r.extension)));
  if (available.length === 0) return { status: 'not-found' };
  const chosen = negotiate(
    accept,
    available.map((r) => r.mediaType),
  );
  if (!chosen) return { status: 'not-acceptable', available: available.map((r) => r.mediaType) };
  const rep = available.find((r) => r.mediaType === chosen)!;
  try {
    return { status: 'ok', mediaType: chosen, body: readFileSync(join(dir, term + rep.extension)) };
  } catch {
    return { status: 'not-found' };
  }
}
