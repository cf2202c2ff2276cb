import { jsonText } from '../record/jsonText.js';

/**
 * A record (or a part of an input) that did not make it into the output, with
 * the reason: one line of a rejects file, the same from every command
 * (`convert`, `export`, `get`). Documented in docs/errors.md (*Rejects file*).
 */
export interface Rejection {
  /** The input it came from: a file name, `<stdin>`, or the service's endpoint URL for a harvest. */
  source: string;
  /** 1-based position of the record in its input (in a harvest: in the harvest's order), when known. */
  index?: number;
  /** 1-based line of newline-delimited input, when known. */
  line?: number;
  /** The record's DOI, or `source#index` when it has none. */
  recordId: string;
  /** The field at fault (`doi`, `creators[2].ORCID`, `(record)`, `(input)`, `(output)`, `(shapes)` or a shape's path). */
  field: string;
  /** Why, stably: `record-invalid`, `duplicate-doi`, `validation-failed`, `serialization` or `unreadable`. */
  code: RejectionCode;
  reason: string;
  /** The record as read, so nothing is lost (absent when the input could not be parsed at all). */
  record?: unknown;
  /** The start of unreadable text, when the input could not be parsed. */
  excerpt?: string;
  /** SHACL results, when the record was rejected by validation. */
  violations?: unknown[];
  /** `duplicate-doi` of a record whose content differs from the first record of its DOI: the conflict's note, naming both. */
  conflict?: string;
}

/** Why a record was rejected. */
export type RejectionCode = 'record-invalid' | 'duplicate-doi' | 'validation-failed' | 'serialization' | 'unreadable';

/** A rejection as one JSON line (with its newline), however deeply the record is nested. */
export function rejectionLine(rejection: Rejection): string {
  return `${jsonText(rejection)}\n`;
}

/** How long one printed value (a DOI, a reason) may be before it is cut. */
const MAX_VALUE = 200;

/**
 * One line a person can act on: the file, the record (its index, line and
 * DOI), the field and what was wrong, e.g.
 * `in.json record 3 (line 3) 10.1007/x, field creators[1].ORCID: reason`.
 * Control and invisible characters are shown as `\uXXXX`; long values are cut.
 */
export function describeRejection(r: Rejection): string {
  const at = r.index !== undefined ? ` record ${r.index}` : '';
  const line = r.line !== undefined ? ` (line ${r.line})` : '';
  const id = r.recordId !== `${r.source}#${r.index}` && r.recordId !== r.source ? ` ${oneLine(r.recordId)}` : '';
  return `${oneLine(r.source)}${at}${line}${id}, field ${oneLine(r.field)}: ${oneLine(r.reason, 2 * MAX_VALUE)}`;
}

// Characters that would break a line or a terminal: controls (C0, DEL, C1), line and paragraph separators,
// bidi and other format characters, non-characters, lone surrogates.
const INVISIBLE =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A value made safe for one line of a terminal: invisible characters as `\uXXXX`, cut to `max` characters. */
export function oneLine(text: string, max = MAX_VALUE): string {
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  return escapeInvisible(cut);
}

/** Invisible characters (controls, line separators, bidirectional overrides, lone surrogates) written as `\uXXXX`: text that cannot drive a terminal or hide what it says. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
