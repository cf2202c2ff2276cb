import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { LANGUAGE_HEADINGS, splitAbstractLanguages } from '../../src/record/splitAbstractLanguages.js';

// Abstracts as the service glues them (headings and text run together), in the forms of real records of German,
// French, Chinese and Spanish journals that publish an English abstract beside the one of their language.
const GERMAN =
  'ZusammenfassungHintergrundDie Versorgung älterer Patienten ist eine Herausforderung.ErgebnisseDie Kliniken müssen.' +
  'AbstractBackgroundThe care of elderly patients is a challenge.ResultsHospitals must adapt.';
const FRENCH =
  'RésuméLes auteurs décrivent une série de 12 cas (2010–2015).AbstractThe authors describe a series of 12 cases (2010–2015).';
const CHINESE = '摘要目的探讨新方法的效果。方法回顾性分析。AbstractObjective To explore the effect of a new method.';
const SPANISH =
  'ResumenEl objetivo fue evaluar la escala.ResumoO objetivo foi avaliar a escala.AbstractThe aim was to assess the scale.';

/** The text less its language headings (and the white space around them): what the parts must rejoin to. */
function withoutHeadings(text: string): string {
  return text.replace(new RegExp(Object.keys(LANGUAGE_HEADINGS).join('|'), 'g'), '').replace(/\s+/g, '');
}

describe('splitAbstractLanguages', () => {
  it.each([
    ['German and English', GERMAN, ['de', 'en']],
    ['French and English', FRENCH, ['fr', 'en']],
    ['Chinese and English', CHINESE, ['zh', 'en']],
    ['Spanish, Portuguese and English', SPANISH, ['es', 'pt', 'en']],
  ])('cuts %s into one abstract per language, nothing dropped', (_, text, languages) => {
    const parts = splitAbstractLanguages(text)!;
    expect(parts.map((p) => p.language)).toEqual(languages);
    expect(withoutHeadings(parts.map((p) => p.text).join(''))).toBe(withoutHeadings(text));
    for (const p of parts) expect(p.text).not.toMatch(/^(Abstract|Zusammenfassung|Résumé|摘要|Resumen|Resumo)/);
  });

  it('leaves an abstract in one language alone, and heading words in prose', () => {
    expect(splitAbstractLanguages('AbstractWe study the Abstract syntax. The summary follows.')).toBeUndefined();
    expect(splitAbstractLanguages('We read an abstract.Summary statistics were computed.')).toBeUndefined();
    expect(splitAbstractLanguages('Purpose of reviewX.Recent findingsY.SummaryZ.')).toBeUndefined();
  });

  it("keeps a first part that has no heading (the record's language), the later ones tagged", () => {
    const parts = splitAbstractLanguages('Die Studie zeigt es.AbstractThe study shows it.')!;
    expect(parts).toEqual([
      { text: 'Die Studie zeigt es.' },
      { heading: 'Abstract', language: 'en', text: 'The study shows it.' },
    ]);
  });
});

describe('a multilingual abstract in the graph', () => {
  it('is one schema:abstract per language, each with its tag, and a note', () => {
    const m = mapRecord(
      normalizeRecord({ doi: '10.1007/s00105-015-1', title: 'Versorgung', language: 'de', abstract: GERMAN }),
    );
    const abstracts = m.quads.filter((q) => q.predicate.value === 'http://schema.org/abstract').map((q) => q.object);
    expect(abstracts.map((o) => (o as { language: string }).language)).toEqual(['de', 'en']);
    expect(abstracts[0]!.value).toBe(
      'Hintergrund: Die Versorgung älterer Patienten ist eine Herausforderung.\n\nErgebnisse: Die Kliniken müssen.',
    );
    expect(abstracts[1]!.value).toMatch(/^Background: The care/);
    expect(m.notes.some((n) => n.includes('2 abstracts in one text, split at their language headings'))).toBe(true);
  });
});
