/**
 * Section headings of structured abstracts, which the service sends glued to
 * the text ("ObjectiveBreast cancer is…", "…in elderlies.Materials and
 * methodsFrom July 2010…"): separated so that the heading reads as one.
 * A one-word heading glued at the start of the text or of a paragraph is
 * only taken for one in a structured abstract (one with another heading):
 * alone it is as likely a name ("ContextCapture is…", "MethodsX publishes…").
 */

/**
 * Headings of structured abstracts, by language. A heading is written with
 * its first letter upper case; the later words of a heading match in either
 * case ("Materials and methods", "Materials and Methods").
 */
const HEADINGS: readonly string[] = [
  // English (medicine, life sciences, reviews, Emerald-style)
  'Background',
  'Background and aims',
  'Background and purpose',
  'Background and objectives',
  'Context',
  'Introduction',
  'Rationale',
  'Hypothesis',
  'Objective',
  'Objectives',
  'Aim',
  'Aims',
  'Aims and objectives',
  'Aim of the study',
  'Purpose',
  'Purpose of review',
  'Recent findings',
  'Summary',
  'Methods',
  'Method',
  'Methodology',
  'Materials and methods',
  'Material and methods',
  'Methods and materials',
  'Patients and methods',
  'Subjects and methods',
  'Design',
  'Study design',
  'Design and methods',
  'Setting',
  'Settings',
  'Setting and participants',
  'Participants',
  'Patients',
  'Subjects',
  'Intervention',
  'Interventions',
  'Measurements',
  'Main outcome measure',
  'Main outcome measures',
  'Outcome measures',
  'Main outcomes and measures',
  'Data sources',
  'Study selection',
  'Data extraction',
  'Data synthesis',
  'Evidence acquisition',
  'Evidence synthesis',
  'Case presentation',
  'Case report',
  'Case description',
  'Results',
  'Results and discussion',
  'Findings',
  'Discussion',
  'Conclusion',
  'Conclusions',
  'Conclusions and relevance',
  'Limitations',
  'Implications',
  'Practical implications',
  'Significance',
  'Clinical relevance',
  'Clinical significance',
  'Level of evidence',
  'Trial registration',
  'Design/methodology/approach',
  'Originality/value',
  'Research limitations/implications',
  'Graphical abstract',
  'Electronic supplementary material',
  // German
  'Hintergrund',
  'Einleitung',
  'Ziel',
  'Ziele',
  'Zielsetzung',
  'Fragestellung',
  'Methode',
  'Methoden',
  'Methodik',
  'Material und Methoden',
  'Material und Methode',
  'Patienten und Methoden',
  'Studiendesign',
  'Ergebnis',
  'Ergebnisse',
  'Diskussion',
  'Schlussfolgerung',
  'Schlussfolgerungen',
  'Schlußfolgerung',
  'Schlußfolgerungen',
  'Fazit',
  'Fazit für die Praxis',
  // French
  'Contexte',
  'Objectif',
  'Objectifs',
  'Méthode',
  'Méthodes',
  'Méthodologie',
  'Matériel et méthodes',
  'Matériels et méthodes',
  'Patients et méthodes',
  'Résultats',
  // Spanish
  'Antecedentes',
  'Fundamento',
  'Introducción',
  'Objetivo',
  'Objetivos',
  'Método',
  'Métodos',
  'Material y métodos',
  'Materiales y métodos',
  'Pacientes y métodos',
  'Resultados',
  'Discusión',
  'Conclusión',
  'Conclusiones',
  // Portuguese
  'Introdução',
  'Contexto',
  'Objectivo',
  'Objectivos',
  'Material e métodos',
  'Materiais e métodos',
  'Discussão',
  'Conclusão',
  'Conclusões',
  // Italian
  'Introduzione',
  'Premessa',
  'Scopo',
  'Obiettivo',
  'Obiettivi',
  'Metodo',
  'Metodi',
  'Materiali e metodi',
  'Risultati',
  'Discussione',
  'Conclusione',
  'Conclusioni',
  // Dutch
  'Achtergrond',
  'Doel',
  'Doelstelling',
  'Resultaten',
  'Discussie',
  'Conclusie',
  'Conclusies',
  // Russian
  'Введение',
  'Цель',
  'Цель исследования',
  'Материал и методы',
  'Материалы и методы',
  'Методы',
  'Результаты',
  'Обсуждение',
  'Заключение',
  'Выводы',
];

/** A heading as a pattern: special characters escaped, later words in either case. */
function headingPattern(heading: string): string {
  return heading
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/(?<=[ /])\p{L}/gu, (ch) => `[${ch.toLowerCase()}${ch.toUpperCase()}]`);
}

// Every heading, longest first ("Results and discussion" before "Results"; the look-ahead after a heading keeps a
// shorter one from matching inside a longer one anyway).
const ANY_HEADING = [...new Set(HEADINGS)]
  .sort((a, b) => b.length - a.length)
  .map(headingPattern)
  .join('|');

/**
 * A heading glued to the text: at the start of the text or of a paragraph, or
 * right after sentence-end punctuation or a closing bracket or quote (no
 * space between), and directly followed by an upper-case letter or a digit,
 * or by a colon (a heading already separated from its text, which may still
 * be glued to the sentence before it: `…models.Methods: A search…`). Every
 * match is a heading of the text (it shows the abstract is structured); which
 * are separated is decided in {@link separateAbstractSections}.
 */
const GLUED_SECTION_HEADING = new RegExp(`(?:^|(?<=[.!?)\\]"'”’»]))(?:${ANY_HEADING})(?=[\\p{Lu}\\p{N}:])`, 'gmu');

// Fast path: a text where no upper-case letter follows sentence-end punctuation, a closing bracket or quote, or a
// line break directly, and that does not start with a glued heading, has no heading to separate.
const MAY_HAVE_GLUED_HEADING = /[.!?)\]"'”’»\n]\p{Lu}/u;
const GLUED_HEADING_AT_START = new RegExp(`^(?:${ANY_HEADING})(?=[\\p{Lu}\\p{N}])`, 'u');

/** A heading of more than one word ("Materials and methods", "Trial registration", "Originality/value"). */
const MULTI_WORD = /[ /]/;

/** Whether `text` has at least `n` matches of {@link GLUED_SECTION_HEADING} (stops counting at `n`). */
function hasHeadings(text: string, n: number): boolean {
  const pattern = new RegExp(GLUED_SECTION_HEADING.source, GLUED_SECTION_HEADING.flags);
  let count = 0;
  while (count < n && pattern.exec(text)) count++;
  return count >= n;
}

/**
 * Separates the section headings of a structured abstract from its text: a
 * heading glued to its text becomes `Heading: …`, and a heading glued to the
 * end of the previous sentence starts a new paragraph (`…sentence.\n\nHeading:
 * …`); `Heading: …` at the start of the text or of a paragraph is left as it
 * is. Only glued headings are touched: a heading word followed by a space or
 * preceded by a space is text as it stands. A heading glued at the start of
 * the text or of a paragraph is separated only when it has more than one
 * word (`Materials and methodsWe…`) or the text has another heading (glued,
 * or `Heading:` at the start of a paragraph): a lone `ContextCapture is…`,
 * `MethodsX publishes…` or `DesignBuilder…` is a name, and stays as it is.
 * Expects the text as the normaliser leaves it (paragraphs separated by
 * `\n\n`, no other line breaks). Returns the text and how many headings were
 * separated (0: the text is returned as it was).
 */
export function separateAbstractSections(text: string): { text: string; separated: number } {
  if (!MAY_HAVE_GLUED_HEADING.test(text) && !GLUED_HEADING_AT_START.test(text)) return { text, separated: 0 };
  // Counted only when a one-word heading at a paragraph start needs it, and only up to two.
  let structured: boolean | undefined;
  let separated = 0;
  const out = text.replace(GLUED_SECTION_HEADING, (heading: string, offset: number) => {
    const paragraphStart = offset === 0 || text[offset - 1] === '\n';
    const colon = text[offset + heading.length] === ':';
    if (paragraphStart && colon) return heading;
    if (paragraphStart && !MULTI_WORD.test(heading) && !(structured ??= hasHeadings(text, 2))) return heading;
    separated++;
    return `${paragraphStart ? '' : '\n\n'}${heading}${colon ? '' : ': '}`;
  });
  return { text: separated ? out : text, separated };
}
