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
  /** A lookup found nothing: the service has no record with the DOI `get` asked for (an empty result, not a failure). */
  'no-record': 7,
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
    options?: ErrorOptions & { details?: Record<string, unknown> },
  ) {
    super(message, code, { ...options, details: { ...options?.details, url, status, retryable } });
  }
}

/** The exit code the CLI uses for an error code. */
export function exitCodeFor(code: ErrorCode): number {
  return ERROR_CODES[code] ?? 70;
}

/**
 * Removes every occurrence of each secret from a text (for logs, messages,
 * state files): as given, URL-encoded (either case of hex digits), as a form
 * field writes it (a space is `+`), and in base64 (standard and URL-safe,
 * whole or inside a longer base64 text: an echoed `Authorization: Basic`
 * header holds `user:password` so). A short secret (under 12 characters) is
 * removed where it stands alone, not inside a longer run of letters and
 * digits: a key `k` must not turn "network" into "networ<API_KEY>".
 * This is the one place secrets are taken out of texts; {@link hideSecrets}
 * adds what URLs and echoed headers may carry without being named.
 */
export function redact(text: string, secrets: readonly (string | undefined)[], placeholder = '<API_KEY>'): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    const forms = secretForms(secret);
    for (const form of forms) {
      if (form.length >= SHORT_SECRET) out = out.split(form).join(placeholder);
      // Alone: not inside a run of letters and digits, except that a %XX escape before it ends one (api_key%3Dabc).
      else
        out = out.replace(
          new RegExp(
            `(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2}))${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`,
            'g',
          ),
          placeholder,
        );
    }
    out = hideCutSecret(out, forms, placeholder);
  }
  return out;
}

/** The fewest characters of a secret's form that are taken out where a text was cut. */
const CUT_PART = 4;

/** Where the cuts of a text (`…`, `...`) start, in order. */
function cuts(text: string): number[] {
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2026) at.push(i);
    else if (c === 46 && text.charCodeAt(i + 1) === 46 && text.charCodeAt(i + 2) === 46) {
      at.push(i);
      i += 2;
    }
  }
  return at;
}

/**
 * Takes out what is left of a secret where a text was cut (an excerpt of an error body at 200 characters,
 * marked `…` or `...`): a start of one of its `forms` (of at least {@link CUT_PART} characters) right before
 * a cut, and an end of one right after a cut. Whoever cuts a text marks the cut.
 */
function hideCutSecret(text: string, forms: readonly string[], placeholder: string): string {
  const long = forms.filter((f) => f.length > CUT_PART);
  if (long.length === 0) return text;
  let out = text;
  if (cuts(text).length === 0) return text;
  for (const form of long) {
    // (A character of the form must stand beside the cut: a text of dots is not searched at each of its cuts.)
    const chars = new Set(form);
    // Before each cut: the longest start of the form found there.
    for (const end of cuts(out).reverse()) {
      if (end < CUT_PART || !chars.has(out.charAt(end - 1))) continue;
      for (let k = Math.min(form.length - 1, end); k >= CUT_PART; k--) {
        if (out.startsWith(form.slice(0, k), end - k)) {
          out = `${out.slice(0, end - k)}${placeholder}${out.slice(end)}`;
          break;
        }
      }
    }
    // After each cut: the longest end of the form found there.
    for (const cut of cuts(out)
      .map((i) => i + (out.startsWith('…', i) ? 1 : 3))
      .reverse()) {
      if (!chars.has(out.charAt(cut))) continue;
      for (let k = Math.min(form.length - 1, out.length - cut); k >= CUT_PART; k--) {
        if (out.startsWith(form.slice(form.length - k), cut)) {
          out = `${out.slice(0, cut)}${placeholder}${out.slice(cut + k)}`;
          break;
        }
      }
    }
  }
  return out;
}

const SHORT_SECRET = 12;

/** The forms a secret takes in texts, longest first (so a longer form is replaced before a shorter one inside it). */
function secretForms(secret: string): string[] {
  // As given, as in a URL path or query (encodeURIComponent, hex digits in either case), as a form field (URLSearchParams: a space is +).
  const encoded = encodeURIComponent(secret);
  const forms = new Set([
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    new URLSearchParams([['k', secret]]).toString().slice(2),
  ]);
  for (const form of base64Forms(secret)) forms.add(form);
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * A secret in base64: whole (with and without padding, standard and
 * URL-safe), and, inside a longer base64 text, the characters that depend on
 * the secret's bytes only, at each of the three alignments (kept when at
 * least 8 characters long: shorter ones would match by chance).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const whole = bytes.toString('base64');
  const forms = [whole, whole.replace(/=+$/, ''), bytes.toString('base64url')];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = text.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/**
 * A text with the secrets URLs may carry masked: the user and password of
 * `scheme://user:password@host` and the values of query parameters named like
 * a key, token or password (`?api_key=`, `&token=`). For messages that show a
 * URL the user typed, parseable or not. A value already replaced by
 * {@link redact} (`<API_KEY>`) is left as it is.
 */
export function hideUrlSecrets(text: string): string {
  return (
    text
      // Found at its `://`, the scheme looked for behind it: a pattern that starts with the scheme is tried at
      // every letter of a long run of letters and took time quadratic in the run (a 256 KB literal a parser quoted: minutes).
      .replace(/:\/\/(?<=[a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/gi, '://***@')
      .replace(
        /([?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|password|passwd|pwd|secret)=)(?!<[A-Z_]+>)[^&#\s]*/gi,
        '$1***',
      )
  );
}

/**
 * Credentials of HTTP authentication as a server or proxy may echo them in
 * an error body: the value of a Basic (`Basic dXNlcjpwYXNz`) or Bearer
 * credential, and the `username`, `response` and `cnonce` of a Digest one.
 */
export function hideAuthorization(text: string): string {
  return (
    text
      .replace(
        /\b(Basic|Bearer)(\s+)([A-Za-z0-9+/_.~-]{6,}=*)(?![A-Za-z0-9+/="])/gi,
        (all, scheme: string, space: string, token: string) => (looksEncoded(token) ? `${scheme}${space}***` : all),
      )
      // (A quoted value of at most 4,096 characters: an unclosed quote after each of many names is not scanned to the end each time.)
      .replace(/\b(username|response|cnonce)(\s*=\s*)"[^"\r\n]{0,4096}"/gi, '$1$2"***"')
  );
}

/** Whether a word after `Basic`/`Bearer` is a credential, not English ("Basic authentication"): digits, `+/=`, or capitals after its first letter. */
function looksEncoded(token: string): boolean {
  return /[0-9+/=_~.-]/.test(token) || /[A-Z]/.test(token.slice(1));
}

/**
 * The one redaction path for texts that leave the toolkit (messages, logs,
 * state and log files): the given secrets in every form ({@link redact}),
 * then what URLs ({@link hideUrlSecrets}) and echoed authentication headers
 * ({@link hideAuthorization}) may carry without being named.
 */
export function hideSecrets(
  text: string,
  secrets: readonly (string | undefined)[] = [],
  placeholder = '<API_KEY>',
): string {
  return hideUrlSecrets(hideAuthorization(redact(text, secrets, placeholder)));
}

/** What an errno code of a failed read or write means, in words. */
const IO_FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error of the device',
  EPIPE: 'the reader went away (broken pipe)',
  EROFS: 'read-only file system',
  EFBIG: 'file too large for the file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EBADF: 'the file was closed',
  ENXIO: 'no such device',
};

/** Whether an error is a failed read or write of the machine's (a full disk, a device error, a closed pipe, ...), not of the toolkit. */
export function isIoFailure(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code in IO_FAILURES && !(err instanceof ToolkitError);
}

/**
 * A failed read or write as an `io` error whose message names the path (and
 * `what` it is) and says what happened in one line (`cannot write the state
 * file out.nt.state.json: no space left on the device (ENOSPC)`). A
 * `ToolkitError` is returned as it is.
 */
export function ioError(
  err: unknown,
  path: string,
  doing: 'write' | 'read' | 'create' | 'open' = 'write',
  what?: string,
): ToolkitError {
  if (err instanceof ToolkitError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const known =
    code === 'ENOENT' && doing === 'create'
      ? 'its folder does not exist'
      : code !== undefined
        ? IO_FAILURES[code]
        : undefined;
  const why = known ? `${known} (${code})` : err instanceof Error ? err.message : String(err);
  return new ToolkitError(`cannot ${doing} ${what ? `${what} ` : ''}${path}: ${why}`, 'io', {
    cause: err,
    details: { path, ...(code !== undefined ? { errno: code } : {}) },
  });
}
