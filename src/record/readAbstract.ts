import { MappingError } from '../errors.js';
import { unwrapParagraphs } from './collapseWhitespace.js';
import { type RecordCleaners, fieldOf } from './recordCleaners.js';
import { describe, scalar, stringList } from './scalar.js';
import { separateAbstractSections } from './separateAbstractSections.js';
import { splitAbstractLanguages } from './splitAbstractLanguages.js';
import type { AbstractText, ScholarlyRecord } from './types.js';

const REWRAPPED_NOTE =
  'lines wrapped inside a paragraph joined and runs of white space collapsed to single spaces; paragraph breaks kept';

// The abstract's own heading glued to the text ("AbstractWe ..."): a known heading word immediately followed by an
// upper-case letter. Section headings of structured abstracts ("BackgroundWe ...") are kept in the text.
const GLUED_HEADING =
  /^(Abstract|Summary|Zusammenfassung|Résumé|Resumen|Resumo|Riassunto|Samenvatting|Аннотация)(?=\p{Lu})/u;

/**
 * The abstract, a string or `{h1, p}` (`p` a string or paragraphs, joined by
 * a blank line): cleaned, wrapped lines joined (paragraphs kept), a glued
 * heading of the abstract itself taken off, the section headings of a
 * structured abstract separated (see {@link separateAbstractSections}); one
 * note for the white space, one for the headings.
 */
export function readAbstract(
  value: unknown,
  id: string,
  path: string,
  clean: RecordCleaners,
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
    t = paragraphs(clean.text(value, path).trim());
    const m = GLUED_HEADING.exec(t);
    if (m) {
      heading = m[1]!;
      t = t.slice(heading.length).trim();
    }
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    heading =
      o.h1 === undefined
        ? undefined
        : clean.line(scalar(o.h1, id, path, undefined, 'h1') ?? '', path, undefined, 'h1') || undefined;
    t = stringList(o.p ?? [], id, `${path}.p`, clean.text)
      .map(paragraphs)
      .join('\n\n');
    const extra = Object.keys(o).filter((k) => k !== 'h1' && k !== 'p');
    if (extra.length) throw new MappingError(`unexpected keys in abstract object: ${extra.join(', ')}`, id, path);
  } else {
    throw new MappingError(`expected a string or {h1, p}, got ${describe(value)}`, id, path);
  }
  if (rewrapped) clean.noteOnce(fieldOf(path), REWRAPPED_NOTE);
  if (!t) return undefined;
  const languages = splitAbstractLanguages(heading && typeof value === 'string' ? `${heading}${t}` : t);
  if (languages) {
    let separated = 0;
    for (const part of languages) {
      const s = separateAbstractSections(part.text);
      separated += s.separated;
      part.text = s.text;
    }
    if (separated)
      record.notes.push(`${path}: ${separated} section heading${separated === 1 ? '' : 's'} separated from the text`);
    const named = languages.map((p) =>
      p.heading ? `"${p.heading}"${p.language ? ` (${p.language})` : ''}` : 'a part without a heading',
    );
    record.notes.push(
      `${path}: ${languages.length} abstracts in one text, split at their language headings: ${named.join(', ')}`,
    );
    return { text: languages.map((p) => p.text).join('\n\n'), languages };
  }
  const sections = separateAbstractSections(t);
  if (sections.separated) {
    record.notes.push(
      `${path}: ${sections.separated} section heading${sections.separated === 1 ? '' : 's'} separated from the text`,
    );
  }
  return heading ? { heading, text: sections.text } : { text: sections.text };
}
