import { cleanText, mayNeedCleaning, mayNeedLineCleaning } from './cleanText.js';
import { collapseWhitespace } from './collapseWhitespace.js';
import { placeOf } from './placeOf.js';

/**
 * Cleans one string of a record found at `path` (`title`), or at `path[at]` or `path[at].key`
 * (`creators[2].creator`: `placeOf`'s parts, joined only for a note), noting what it changed.
 */
export type Clean = (value: string, path: string, at?: number, key?: string) => string;

/** The cleaners of one record's strings, sharing its notes. */
export interface RecordCleaners {
  /** Any text: characters no RDF format can carry removed, NFC (see {@link cleanText}); one note per string changed. */
  text: Clean;
  /** One-line text (a title, a name, a label): cleaned, trimmed, white space collapsed; one note per field. */
  line: Clean;
  /** Adds `<field>: <note>` to the notes, unless the field has a note of this kind already. */
  noteOnce: (field: string, note: string) => void;
}

const COLLAPSED_NOTE =
  'line breaks, tabs and runs of white space collapsed to single spaces (text wrapped across lines or padded in the source)';

/**
 * The cleaners of one record, writing their notes to `notes`: one note for
 * each string whose characters changed, one per field whose white space was
 * collapsed (however many of its values changed).
 */
export function recordCleaners(notes: string[]): RecordCleaners {
  const text = (value: string, path: string, at?: number, key?: string): string => {
    if (!mayNeedCleaning(value)) return value;
    const { text: clean, changed } = cleanText(value);
    if (changed)
      notes.push(
        `${placeOf(path, at, key)}: removed or replaced ${changed} character(s) that RDF/XML cannot carry, or normalised the text to Unicode NFC`,
      );
    return clean;
  };
  // Fields that have a white-space note already: one per field, however many of its values changed (made for
  // the first note: most records have none).
  let noted: Set<string> | undefined;
  const noteOnce = (field: string, note: string): void => {
    noted ??= new Set();
    if (noted.has(field)) return;
    noted.add(field);
    notes.push(`${field}: ${note}`);
  };
  const line = (value: string, path: string, at?: number, key?: string): string => {
    // most one-line texts need neither cleaning nor collapsing: one scan says so (not one scan each)
    if (!mayNeedLineCleaning(value)) return value.trim();
    const s = text(value, path, at, key).trim();
    const collapsed = collapseWhitespace(s);
    if (collapsed !== s) noteOnce(fieldOf(path), COLLAPSED_NOTE);
    return collapsed;
  };
  return { text, line, noteOnce };
}

/** The field a path names: `creators[2].creator` is `creators`, `abstract.h1` is `abstract`. */
export function fieldOf(path: string): string {
  const end = path.search(/[[.]/);
  return end < 0 ? path : path.slice(0, end);
}
