/**
 * Abstracts in several languages sent as one text, each part after its
 * language's heading glued to it ("Zusammenfassung Die … müssen.AbstractThe
 * …", "摘要目的…。AbstractObjective…"): cut into one abstract per language.
 * A heading is taken only where it is glued: at the start of the text or of a
 * paragraph, or right after the end of a sentence (`.` `!` `?` `。` or a
 * closing bracket or quote, no space), and directly followed by the text (an
 * upper-case letter or a digit; any character after a CJK heading), with an
 * optional colon between. "Summary" names a language only at the start (inside
 * the text it is a section heading of structured abstracts).
 */

/** One abstract of a multilingual text: its heading as sent, the language the heading names, its text. */
export interface AbstractPart {
  heading?: string;
  /** BCP 47 tag of the language the heading names. */
  language?: string;
  text: string;
}

/** Language headings and the language each names. */
export const LANGUAGE_HEADINGS: Readonly<Record<string, string>> = {
  Abstract: 'en',
  Summary: 'en',
  Zusammenfassung: 'de',
  Résumé: 'fr',
  Resumen: 'es',
  Resumo: 'pt',
  Riassunto: 'it',
  Samenvatting: 'nl',
  Аннотация: 'ru',
  Резюме: 'ru',
  摘要: 'zh',
  要旨: 'ja',
  抄録: 'ja',
};

const CJK = '摘要|要旨|抄録';
const WORDS = 'Abstract|Zusammenfassung|Résumé|Resumen|Resumo|Riassunto|Samenvatting|Аннотация|Резюме';
// At the start of the text: any language heading (Summary included).
const LEADING = new RegExp(`^(?:(${WORDS}|Summary)[:：]?\\s*(?=[\\p{Lu}\\p{N}])|(${CJK})[:：]?\\s*(?=\\S))`, 'u');
// A heading's word anywhere: what every match of INNER holds.
const HEADING_WORD = new RegExp(`${WORDS}|${CJK}`);
// Inside the text: after a sentence end or at a paragraph start.
const INNER = new RegExp(
  `(?<=[.!?。)\\]"”’»]|\\n\\n)(?:(${WORDS})[:：]?\\s*(?=[\\p{Lu}\\p{N}])|(${CJK})[:：]?\\s*(?=\\S))`,
  'gu',
);

/**
 * The language parts of an abstract: `undefined` when it has no language
 * heading inside the text (one abstract, its leading heading left to the
 * caller); else every part, the first with the leading heading if any. The
 * parts' texts joined are the text less its headings (nothing else dropped).
 */
export function splitAbstractLanguages(text: string): AbstractPart[] | undefined {
  // Most abstracts name no language: a heading's word is looked for first (a fourth of INNER's cost), and
  // where one is, whether one stands as a heading, without making a list of matches.
  if (!HEADING_WORD.test(text)) return undefined;
  INNER.lastIndex = 0;
  if (!INNER.test(text)) return undefined;
  INNER.lastIndex = 0;
  const inner = [...text.matchAll(INNER)];
  const parts: AbstractPart[] = [];
  const lead = LEADING.exec(text);
  let start = lead ? lead[0].length : 0;
  let heading = lead ? (lead[1] ?? lead[2])! : undefined;
  const push = (end: number) => {
    const body = text.slice(start, end).trim();
    if (body) parts.push({ ...(heading ? { heading, language: LANGUAGE_HEADINGS[heading] } : {}), text: body });
  };
  for (const m of inner) {
    if (m.index! < start) continue;
    push(m.index!);
    heading = (m[1] ?? m[2])!;
    start = m.index! + m[0].length;
  }
  push(text.length);
  return parts.length > 1 ? parts : undefined;
}
