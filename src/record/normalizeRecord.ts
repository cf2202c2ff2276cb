import { MappingError } from '../errors.js';
import { isValidOrcid } from './orcid.js';
import { cleanText } from '../mapping/iri.js';
import { separateAbstractSections } from './separateAbstractSections.js';
import type { AbstractText, Creator, RawRecord, RecordUrl, ScholarlyRecord } from './types.js';

/** Options of {@link normalizeRecord}. */
export interface NormalizeOptions {
  /** How errors name the record when it has no DOI (e.g. `input.json#3`). Defaults to `record`. */
  recordLabel?: string;
}

type StringKey =
  | 'doi' | 'identifier' | 'contentType' | 'language' | 'title' | 'publicationName' | 'journalTitle'
  | 'openaccess' | 'publisher' | 'publisherName' | 'publicationDate' | 'publicationType' | 'issn' | 'eIssn'
  | 'printIsbn' | 'electronicIsbn' | 'isbn' | 'volume' | 'number' | 'issueType' | 'topicalCollection'
  | 'startingPage' | 'endingPage' | 'journalId' | 'onlineDate' | 'coverDate' | 'copyright';

const STRING_KEYS: readonly StringKey[] = [
  'doi', 'identifier', 'contentType', 'language', 'title', 'publicationName', 'journalTitle', 'openaccess',
  'publisher', 'publisherName', 'publicationDate', 'publicationType', 'issn', 'eIssn', 'printIsbn',
  'electronicIsbn', 'isbn', 'volume', 'number', 'issueType', 'topicalCollection', 'startingPage', 'endingPage',
  'journalId', 'onlineDate', 'coverDate', 'copyright',
];

/**
 * String keys whose values are one line of text (titles, names, labels):
 * white space in them is collapsed to single spaces. Identifiers, codes,
 * numbers and dates are left as sent.
 */
const ONE_LINE_KEYS: ReadonlySet<StringKey> = new Set<StringKey>([
  'title', 'publicationName', 'journalTitle', 'publisher', 'publisherName', 'topicalCollection', 'copyright',
  'contentType', 'publicationType', 'issueType',
]);

type OtherKey = 'url' | 'creators' | 'genre' | 'abstract' | 'conferenceInfo' | 'subjects' | 'keywords' | 'disciplines';
const OTHER_KEYS: readonly OtherKey[] = ['url', 'creators', 'genre', 'abstract', 'conferenceInfo', 'subjects', 'keywords', 'disciplines'];

/**
 * Known keys by their lower-case spelling: the service writes `journalId` or
 * `journalid`, `issueType` or `issuetype`, `openaccess` or `openAccess`
 * depending on endpoint and year; any spelling that differs only in case is
 * accepted.
 */
const KNOWN_KEYS = new Map<string, StringKey | OtherKey>([
  ...[...STRING_KEYS, ...OTHER_KEYS].map((k) => [k.toLowerCase(), k] as const),
  ['keyword', 'keywords'],
]);

/**
 * Turns a record as the service sent it (v2 or v1 family, any of its key
 * spellings and value shapes) into a {@link ScholarlyRecord}: one spelling
 * per key, empty strings dropped, arrays always arrays, text cleaned of
 * characters no RDF format can carry. One-line text (titles, names, journal
 * and publisher names, subjects, keywords, genres, discipline terms,
 * conference details) has its white space collapsed to single spaces; the
 * abstract keeps its paragraphs but not its wrapped lines, and the section
 * headings of a structured abstract are separated from the text. Each kind
 * of change is one note per field. Keys it does not know are kept in
 * `unknownFields`. A value of a type that cannot be read (an object where a
 * string belongs) throws a {@link MappingError} naming the record and field.
 */
export function normalizeRecord(raw: unknown, options: NormalizeOptions = {}): ScholarlyRecord {
  const label = options.recordLabel ?? 'record';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new MappingError(`expected a record object, got ${describe(raw)}`, label, '(record)');
  }
  const input = raw as RawRecord;
  const doiGuess = typeof input.doi === 'string' && input.doi.trim() ? input.doi.trim() : undefined;
  const id = doiGuess ?? label;
  const record: ScholarlyRecord = {
    urls: [], creators: [], genre: [], conferenceInfo: [], subjects: [], keywords: [], disciplines: [],
    unknownFields: {}, notes: [],
  };
  const text = (value: string, path: string): string => {
    const { text: clean, changed } = cleanText(value);
    if (changed) record.notes.push(`${path}: removed or replaced ${changed} character(s) that RDF/XML cannot carry, or normalised the text to Unicode NFC`);
    return clean;
  };
  // Fields that have a white-space note already: one per field, however many of its values changed.
  const noted = new Set<string>();
  const noteOnce = (field: string, note: string): void => {
    if (noted.has(field)) return;
    noted.add(field);
    record.notes.push(`${field}: ${note}`);
  };
  // One-line text (a title, a name, a label): cleaned, trimmed, white space collapsed.
  const line = (value: string, path: string): string => {
    const s = text(value, path).trim();
    const collapsed = collapseWhitespace(s);
    if (collapsed !== s) noteOnce(fieldOf(path), COLLAPSED_NOTE);
    return collapsed;
  };

  for (const [key, value] of Object.entries(input)) {
    const known = KNOWN_KEYS.get(key.toLowerCase());
    if (!known) {
      record.unknownFields[key] = value;
      continue;
    }
    if ((STRING_KEYS as readonly string[]).includes(known)) {
      const s = scalar(value, id, key);
      if (s !== undefined) {
        const cleaned = ONE_LINE_KEYS.has(known as StringKey) ? line(s, key) : text(s, key).trim();
        if (cleaned !== '' && record[known as StringKey] === undefined) record[known as StringKey] = cleaned;
      }
      continue;
    }
    switch (known as OtherKey) {
      case 'url':
        record.urls.push(...readUrls(value, id, key, text));
        break;
      case 'creators':
        record.creators.push(...readCreators(value, id, key, text, line, record));
        break;
      case 'genre':
        record.genre.push(...stringList(value, id, key, line));
        break;
      case 'subjects':
        record.subjects.push(...stringList(value, id, key, line));
        break;
      case 'keywords':
        record.keywords.push(...stringList(value, id, key, line));
        break;
      case 'abstract': {
        const abstract = readAbstract(value, id, key, text, line, noteOnce, record);
        if (abstract) record.abstract = abstract;
        break;
      }
      case 'conferenceInfo':
        if (value === null || value === undefined || value === '') break;
        (Array.isArray(value) ? value : [value]).forEach((v, i) => {
          if (v === '' || v === null) return;
          record.conferenceInfo.push(cleanJson(v, id, Array.isArray(value) ? `${key}[${i}]` : key, line, text));
        });
        break;
      case 'disciplines':
        record.disciplines.push(...readDisciplines(value, id, key, text, line, record));
        break;
    }
  }
  if (record.doi === undefined && record.identifier?.toLowerCase().startsWith('doi:')) {
    const fromIdentifier = record.identifier.slice(4).trim();
    if (fromIdentifier) record.doi = fromIdentifier;
  }
  return record;
}

type Clean = (value: string, path: string) => string;

const COLLAPSED_NOTE = 'line breaks, tabs and runs of white space collapsed to single spaces (text wrapped across lines or padded in the source)';
const REWRAPPED_NOTE = 'lines wrapped inside a paragraph joined and runs of white space collapsed to single spaces; paragraph breaks kept';

/** The field a path names: `creators[2].creator` is `creators`, `abstract.h1` is `abstract`. */
function fieldOf(path: string): string {
  const end = path.search(/[[.]/);
  return end < 0 ? path : path.slice(0, end);
}

// White space other than a plain space (Unicode White_Space: TAB to CR, NEL, NBSP, U+1680, U+2000-U+200A,
// LINE and PARAGRAPH SEPARATOR, U+202F, U+205F, U+3000), or two spaces: the text has white space to collapse.
const NEEDS_COLLAPSE = /[\t-\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]| {2}/;
// A run of two or more white-space characters, or one that is not a plain space.
const WHITE_SPACE_RUN = /\p{White_Space}{2,}|[^\P{White_Space} ]/gu;

/**
 * One-line text with every run of white space that is not a single plain
 * space (line breaks, tabs, no-break and other Unicode spaces, several
 * spaces) made one space. Text that has none is returned as it is.
 */
function collapseWhitespace(value: string): string {
  return NEEDS_COLLAPSE.test(value) ? value.replace(WHITE_SPACE_RUN, ' ') : value;
}

/**
 * Multi-line text (an abstract, already trimmed) with its paragraphs kept
 * and its wrapped lines joined: a run of white space holding two or more
 * line breaks (a blank line, U+2029 PARAGRAPH SEPARATOR) is a paragraph
 * break, written `\n\n`; any other run that is not a single plain space
 * (one line break, tabs, several spaces) becomes one space. CR LF is one
 * line break. Text that has none is returned as it is.
 */
function unwrapParagraphs(value: string): string {
  if (!NEEDS_COLLAPSE.test(value)) return value;
  return value.replace(WHITE_SPACE_RUN, (run) => (lineBreaks(run) >= 2 ? '\n\n' : ' '));
}

/** How many line breaks a run of white space holds (CR LF counts once, PARAGRAPH SEPARATOR twice). */
function lineBreaks(run: string): number {
  let count = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 0x0a || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028) count++;
    else if (c === 0x0d) {
      count++;
      if (run.charCodeAt(i + 1) === 0x0a) i++;
    } else if (c === 0x2029) count += 2;
  }
  return count;
}

/** How deep a JSON value kept as it is (an element of `conferenceInfo`) may nest. */
const MAX_JSON_DEPTH = 32;

/**
 * A copy of a JSON value whose strings are cleaned (string values with
 * `clean`, keys with `cleanKey`), for values kept whole (`conferenceInfo`
 * elements are written as JSON text). Deeper than {@link MAX_JSON_DEPTH}
 * levels is refused: such a value is junk, and writing it would overflow the
 * stack.
 */
function cleanJson(value: unknown, id: string, path: string, clean: Clean, cleanKey: Clean, depth = 0): unknown {
  if (typeof value === 'string') return clean(value, path);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) throw new MappingError(`nested deeper than ${MAX_JSON_DEPTH} levels`, id, path);
  if (Array.isArray(value)) return value.map((v, i) => cleanJson(v, id, `${path}[${i}]`, clean, cleanKey, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      cleanKey(k, path),
      cleanJson(v, id, `${path}.${k}`, clean, cleanKey, depth + 1),
    ]),
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A scalar as a string; numbers and booleans are accepted (a saved file may have them), null/undefined are empty. */
function scalar(value: unknown, id: string, path: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new MappingError(`expected a string, got ${describe(value)}`, id, path);
}

function stringList(value: unknown, id: string, path: string, clean: Clean): string[] {
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  items.forEach((item, i) => {
    const s = scalar(item, id, Array.isArray(value) ? `${path}[${i}]` : path);
    if (s === undefined) return;
    const c = clean(s, `${path}[${i}]`).trim();
    if (c) out.push(c);
  });
  return out;
}

function readUrls(value: unknown, id: string, path: string, clean: Clean): RecordUrl[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value === 'string') return [{ format: '', platform: '', value: clean(value, path).trim() }].filter((u) => u.value);
  if (!Array.isArray(value)) {
    if (typeof value === 'object') return readUrls([value], id, path, clean);
    throw new MappingError(`expected an array of links or a URL, got ${describe(value)}`, id, path);
  }
  const out: RecordUrl[] = [];
  value.forEach((item, i) => {
    const p = `${path}[${i}]`;
    if (typeof item === 'string') {
      const v = clean(item, p).trim();
      if (v) out.push({ format: '', platform: '', value: v });
      return;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new MappingError(`expected a link object {format, platform, value}, got ${describe(item)}`, id, p);
    }
    const o = item as Record<string, unknown>;
    const v = clean(scalar(o.value, id, `${p}.value`) ?? '', `${p}.value`).trim();
    if (!v) return;
    out.push({
      format: clean(scalar(o.format, id, `${p}.format`) ?? '', `${p}.format`).trim(),
      platform: clean(scalar(o.platform, id, `${p}.platform`) ?? '', `${p}.platform`).trim(),
      value: v,
    });
  });
  return out;
}

const ORCID_PATTERN = /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/;

function readCreators(value: unknown, id: string, path: string, clean: Clean, line: Clean, record: ScholarlyRecord): Creator[] {
  if (value === null || value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  const out: Creator[] = [];
  items.forEach((item, i) => {
    const p = Array.isArray(value) ? `${path}[${i}]` : path;
    if (typeof item === 'string') {
      const name = personName(line(item, p), p, record);
      if (name) out.push({ name });
      return;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new MappingError(`expected a creator object {creator, ORCID}, got ${describe(item)}`, id, p);
    }
    const o = item as Record<string, unknown>;
    let name = '';
    let orcidValue: string | undefined;
    for (const [k, v] of Object.entries(o)) {
      const lk = k.toLowerCase();
      if (lk === 'creator' || lk === 'name') name = line(scalar(v, id, `${p}.${k}`) ?? '', `${p}.${k}`) || name;
      else if (lk === 'orcid') orcidValue = clean(scalar(v, id, `${p}.${k}`) ?? '', `${p}.${k}`).trim() || undefined;
      else record.unknownFields[`${path}[].${k}`] = v;
    }
    const creator: Creator = { name: personName(name, `${p}.creator`, record) };
    if (orcidValue) {
      const m = ORCID_PATTERN.exec(orcidValue);
      // A mistyped iD (wrong check character) would link the person to someone else's orcid.org page.
      if (m && isValidOrcid(m[1]!.toUpperCase())) creator.orcid = m[1]!.toUpperCase();
      else creator.orcidRaw = orcidValue;
    }
    if (creator.name || creator.orcid || creator.orcidRaw) out.push(creator);
  });
  return out;
}

/** A creator's name, or '' (with a note) when it has no letter or digit at all (`" , "`, `"-"`): nobody to name. */
function personName(name: string, path: string, record: ScholarlyRecord): string {
  if (name === '' || /[\p{L}\p{N}]/u.test(name)) return name;
  record.notes.push(`${path}: "${name}" names nobody (no letter or digit); the name is left out (and the creator, unless it has an ORCID)`);
  return '';
}

// The abstract's own heading glued to the text ("AbstractWe ..."): a known heading word immediately followed by an
// upper-case letter. Section headings of structured abstracts ("BackgroundWe ...") are kept in the text.
const GLUED_HEADING = /^(Abstract|Summary|Zusammenfassung|Résumé|Resumen|Resumo|Riassunto|Samenvatting|Аннотация)(?=\p{Lu})/u;

/**
 * The abstract, a string or `{h1, p}` (`p` a string or paragraphs, joined by
 * a blank line): cleaned, wrapped lines joined (paragraphs kept), a glued
 * heading of the abstract itself taken off, the section headings of a
 * structured abstract separated (see {@link separateAbstractSections}); one
 * note for the white space, one for the headings.
 */
function readAbstract(
  value: unknown, id: string, path: string, clean: Clean, line: Clean, noteOnce: (field: string, note: string) => void,
  record: ScholarlyRecord,
): AbstractText | undefined {
  if (value === null || value === undefined) return undefined;
  let rewrapped = false;
  const paragraphs = (s: string): string => {
    const t = unwrapParagraphs(s);
    if (t !== s) rewrapped = true;
    return t;
  };
  let heading: string | undefined;
  let t: string;
  if (typeof value === 'string') {
    t = paragraphs(clean(value, path).trim());
    const m = GLUED_HEADING.exec(t);
    if (m) {
      heading = m[1]!;
      t = t.slice(heading.length).trim();
    }
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    heading = o.h1 === undefined ? undefined : line(scalar(o.h1, id, `${path}.h1`) ?? '', `${path}.h1`) || undefined;
    t = stringList(o.p ?? [], id, `${path}.p`, clean).map(paragraphs).join('\n\n');
    const extra = Object.keys(o).filter((k) => k !== 'h1' && k !== 'p');
    if (extra.length) throw new MappingError(`unexpected keys in abstract object: ${extra.join(', ')}`, id, path);
  } else {
    throw new MappingError(`expected a string or {h1, p}, got ${describe(value)}`, id, path);
  }
  if (rewrapped) noteOnce(fieldOf(path), REWRAPPED_NOTE);
  if (!t) return undefined;
  const sections = separateAbstractSections(t);
  if (sections.separated) {
    record.notes.push(`${path}: ${sections.separated} section heading${sections.separated === 1 ? '' : 's'} separated from the text`);
  }
  return heading ? { heading, text: sections.text } : { text: sections.text };
}

function readDisciplines(
  value: unknown, id: string, path: string, clean: Clean, line: Clean, record: ScholarlyRecord,
): { id?: string; term?: string }[] {
  if (value === null || value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  const out: { id?: string; term?: string }[] = [];
  items.forEach((item, i) => {
    const p = Array.isArray(value) ? `${path}[${i}]` : path;
    if (typeof item === 'string') {
      const term = line(item, p);
      if (term) out.push({ term });
      return;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new MappingError(`expected a discipline object {id, term}, got ${describe(item)}`, id, p);
    }
    const o = item as Record<string, unknown>;
    const d: { id?: string; term?: string } = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'id') d.id = clean(scalar(v, id, `${p}.id`) ?? '', `${p}.id`).trim() || undefined;
      else if (k === 'term') d.term = line(scalar(v, id, `${p}.term`) ?? '', `${p}.term`) || undefined;
      else record.unknownFields[`${path}[].${k}`] = v;
    }
    if (d.id || d.term) out.push(d);
  });
  return out;
}
