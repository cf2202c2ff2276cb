/**
 * The one error class of the toolkit. Every failure the library reports is a
 * `ToolkitError` (or a subclass) with a stable, documented kebab-case `code`;
 * the CLI maps codes to exit codes (see {@link exitCodeFor}).
 */

/** Stable error codes. Documented in README.md ("Errors and exit codes"). */
export const ERROR_CODES = {
  /** Bad command-line arguments or options. */
  usage: 2,
  /** An input file could not be read (missing, unreadable, bad gzip). */
  io: 4,
  /** An input could not be parsed (JSON, Turtle, N-Triples, JSON-LD, RDF/XML). */
  parse: 4,
  /** A record could not be mapped (names the record and the field). */
  'record-invalid': 1,
  /** A serialiser was given something it cannot write. */
  serialization: 5,
  /** Records were rejected (the run finished, rejects were written). */
  'records-rejected': 1,
  /** Output did not conform to the SHACL shapes. */
  'validation-failed': 1,
  /** The service answered with an HTTP status the client does not retry. */
  'http-status': 3,
  /** 401: the API key is missing or wrong. */
  auth: 3,
  /** 403 "premium feature": a parameter is beyond the key's plan. */
  'plan-limit': 3,
  /** The daily quota ran out (429/403 that persists); state was saved. */
  quota: 3,
  /** Network failure that persisted through all retries. */
  network: 3,
  /** A response body was not what was expected (truncated, not JSON). */
  'bad-response': 3,
  /** The server could not give any of the media types asked for (406). */
  'not-acceptable': 3,
  /** The resource does not exist (404). */
  'not-found': 3,
  /** A media type or format the toolkit does not know. */
  'unsupported-media-type': 2,
  /** A resumable run's state does not match its output or options. */
  'state-mismatch': 6,
  /** The triple count in the store does not match what was sent. */
  'count-mismatch': 1,
  /** The operation was cancelled through an AbortSignal. */
  aborted: 130,
  /** A bug: something that should not happen. */
  internal: 70,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The base error of the toolkit: a message a person can act on, plus a stable code. */
export class ToolkitError extends Error {
  /** Extra facts for programs (never secrets). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    message: string,
    readonly code: ErrorCode,
    options?: ErrorOptions & { details?: Record<string, unknown> },
  ) {
    super(message, options);
    this.name = new.target.name;
    this.details = options?.details ?? {};
  }
}

/** A record that could not be mapped: names the record and the field. */
export class MappingError extends ToolkitError {
  constructor(
    message: string,
    readonly recordId: string,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(`record ${recordId}, field ${path}: ${message}`, 'record-invalid', {
      ...options,
      details: { recordId, path },
    });
  }
}

/** An input that could not be parsed, with its position when known. */
export class ParseError extends ToolkitError {
  /** What is wrong, without the input and position that `message` starts with. */
  readonly reason: string;

  constructor(
    message: string,
    readonly source: string,
    readonly line?: number,
    readonly column?: number,
    options?: ErrorOptions,
  ) {
    super(
      `${source}${line !== undefined ? `:${line}` : ''}${column !== undefined ? `:${column}` : ''}: ${message}`,
      'parse',
      { ...options, details: { source, line, column } },
    );
    this.reason = message;
  }
}

/** An HTTP answer the client gives up on. `url` never carries the API key. */
export class HttpError extends ToolkitError {
  constructor(
    message: string,
    code: ErrorCode,
    readonly url: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, code, { ...options, details: { url, status, retryable } });
  }
}

/** The exit code the CLI uses for an error code. */
export function exitCodeFor(code: ErrorCode): number {
  return ERROR_CODES[code] ?? 70;
}

/**
 * Removes every occurrence of each secret from a text (for logs and messages).
 * A short secret (under 12 characters) is removed where it stands alone, not
 * inside a longer run of letters and digits: a key `k` must not turn
 * "network" into "networ<API_KEY>".
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    // As given, as in a URL path or query (encodeURIComponent, hex digits in either case), as a form field (URLSearchParams: a space is +).
    const encoded = encodeURIComponent(secret);
    const forms = new Set([secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), new URLSearchParams([['k', secret]]).toString().slice(2)]);
    for (const form of forms) {
      if (form.length >= SHORT_SECRET) out = out.split(form).join('<API_KEY>');
      // Alone: not inside a run of letters and digits, except that a %XX escape before it ends one (api_key%3Dabc).
      else out = out.replace(new RegExp(`(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2}))${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g'), '<API_KEY>');
    }
  }
  return out;
}

const SHORT_SECRET = 12;

/**
 * A text with the secrets URLs may carry masked: the user and password of
 * `scheme://user:password@host` and the values of query parameters named like
 * a key, token or password (`?api_key=`, `&token=`). For messages that show a
 * URL the user typed, parseable or not.
 */
export function hideUrlSecrets(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/gi, '$1***@')
    .replace(/([?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|password|passwd|pwd|secret)=)[^&#\s]*/gi, '$1***');
}
