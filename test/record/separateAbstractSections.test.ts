import { describe, expect, it } from 'vitest';
import { separateAbstractSections } from '../../src/record/separateAbstractSections.js';

const separate = (text: string) => separateAbstractSections(text);

describe('separateAbstractSections', () => {
  it('separates the glued headings of a structured abstract, as the service sends it', () => {
    const glued =
      'BackgroundDigital storytelling (DST) can provide a narrative pedagogy that promotes critical thinking (CT). However, we found no previous study in medical education.' +
      'Materials and methodsThe aim of the study was to investigate if DST can promote CT. Thirty-two students participated.' +
      'ResultsPost-test scores showed a significant increase (P-value = 0.002). No significant increase was observed in the control group (P-value = 0.26).' +
      'ConclusionsThe study demonstrated that DST promoted CT.' +
      'Electronic supplementary materialThe online version of this article (doi:10.1186/s13073-017-0403-7) contains supplementary material.';
    expect(separate(glued)).toEqual({
      text: [
        'Background: Digital storytelling (DST) can provide a narrative pedagogy that promotes critical thinking (CT). However, we found no previous study in medical education.',
        'Materials and methods: The aim of the study was to investigate if DST can promote CT. Thirty-two students participated.',
        'Results: Post-test scores showed a significant increase (P-value = 0.002). No significant increase was observed in the control group (P-value = 0.26).',
        'Conclusions: The study demonstrated that DST promoted CT.',
        'Electronic supplementary material: The online version of this article (doi:10.1186/s13073-017-0403-7) contains supplementary material.',
      ].join('\n\n'),
      separated: 5,
    });
  });

  it('separates a heading glued after ! ? ) ] or a closing quote, and one followed by a digit', () => {
    expect(
      separate(
        'ObjectiveBreast cancer is common in elderlies.Materials and methodsFrom July 2010 to 2012, 128 women were seen (n = 128)Results42% had surgery.ConclusionsThe rate is high!',
      ).text,
    ).toBe(
      'Objective: Breast cancer is common in elderlies.\n\nMaterials and methods: From July 2010 to 2012, 128 women were seen (n = 128)\n\nResults: 42% had surgery.\n\nConclusions: The rate is high!',
    );
    expect(separate('Does it work?ResultsYes.').text).toBe('Does it work?\n\nResults: Yes.');
    expect(separate('as “quoted”ConclusionThe end [1]DiscussionWe').text).toBe(
      'as “quoted”\n\nConclusion: The end [1]\n\nDiscussion: We',
    );
  });

  it('matches the later words of a heading in either case, and multi-word headings whole', () => {
    expect(
      separate('DesignCohort study.SettingTwo hospitals.Main Outcome MeasuresDeath.Results and discussionWe found.')
        .text,
    ).toBe(
      'Design: Cohort study.\n\nSetting: Two hospitals.\n\nMain Outcome Measures: Death.\n\nResults and discussion: We found.',
    );
    expect(separate('Patients and MethodsWe studied 12.').text).toBe('Patients and Methods: We studied 12.');
    expect(separate('Purpose of reviewTo sum up.Recent findingsMany.SummaryFew.').separated).toBe(3);
  });

  it('knows the headings of German, French, Spanish, Portuguese, Italian, Dutch and Russian abstracts', () => {
    expect(
      separate(
        'HintergrundDie Studie untersucht X.Material und MethodenWir befragten 20 Personen.ErgebnisseEs zeigte sich Y.SchlussfolgerungenDie Daten stützen Z.',
      ).text,
    ).toBe(
      'Hintergrund: Die Studie untersucht X.\n\nMaterial und Methoden: Wir befragten 20 Personen.\n\nErgebnisse: Es zeigte sich Y.\n\nSchlussfolgerungen: Die Daten stützen Z.',
    );
    expect(separate('FragestellungWie oft?FazitSelten.').text).toBe('Fragestellung: Wie oft?\n\nFazit: Selten.');
    expect(
      separate(
        'ContexteLe sujet.ObjectifÉvaluer X.MéthodesNous avons mesuré.RésultatsLes valeurs.ConclusionLa méthode.',
      ).separated,
    ).toBe(5);
    expect(
      separate('AntecedentesEl tema.ObjetivosEvaluar.MétodosSe midió.ResultadosSe halló.ConclusionesLa técnica.').text,
    ).toBe(
      'Antecedentes: El tema.\n\nObjetivos: Evaluar.\n\nMétodos: Se midió.\n\nResultados: Se halló.\n\nConclusiones: La técnica.',
    );
    expect(
      separate('ObjetivoAvaliar X.MétodosEstudo transversal.ResultadosForam incluídos 30.ConclusãoO método.').separated,
    ).toBe(4);
    expect(
      separate('ObiettivoValutare X.MetodiSono stati inclusi.RisultatiIl tasso.ConclusioniLa tecnica.').separated,
    ).toBe(4);
    expect(
      separate('AchtergrondHet onderwerp.MethodeWe maten.ResultatenDe waarden.ConclusieDe methode.').separated,
    ).toBe(4);
    expect(
      separate('ЦельОценить метод.Материалы и методыВ исследование вошли 30 больных.РезультатыУ всех.ЗаключениеМетод.')
        .text,
    ).toBe(
      'Цель: Оценить метод.\n\nМатериалы и методы: В исследование вошли 30 больных.\n\nРезультаты: У всех.\n\nЗаключение: Метод.',
    );
  });

  it('leaves ordinary prose and headings that are already separated as they are', () => {
    const unchanged = [
      // The real 2017 record: headings followed by a space are text as it stands.
      'Introduction The field of metabolomics has expanded. Objectives To compile a list. Methods The most widely used tools were selected.',
      'Results of the trial are shown in Table 2. Methods were standard, and the Results section follows.',
      'Background noise was reduced. Design choices matter.',
      'Background text',
      'Methodological issues are discussed. Aims and scope follow.',
      // "U.S.A." lets the text past the fast path: the full pattern must still find nothing.
      'In the U.S.A. we used theResultsViewer tool (see ResultsPanel) and Methods2 of (A)Design.',
      'Objective: Breast cancer is common.\n\nResults: We found X.',
      'See https://example.org/Results/Data and e.g. Results below.',
      'Methodological issues are discussed.Resultsare followed by a lower-case letter.',
      'RESULTSWe do not guess headings in capitals.',
      '',
    ];
    for (const text of unchanged) expect(separate(text), text).toEqual({ text, separated: 0 });
  });

  it('leaves a lone one-word heading glued at the start of the text or of a paragraph: it may be a name', () => {
    const names = [
      'ContextCapture is a photogrammetry software.',
      'MethodsX publishes the methods of research papers.',
      'PatientsLikeMe is a network of patients.',
      'DesignBuilder models the energy use of buildings.',
      'SummaryStatistics are computed for each group.',
      'We modelled the building.\n\nDesignBuilder was used for it. Results are in Table 2.',
      // Alone, a real heading looks the same as a name, and is left too.
      'ObjectiveBreast cancer is common in elderlies.',
    ];
    for (const text of names) expect(separate(text), text).toEqual({ text, separated: 0 });
  });

  it('separates a heading glued at the start when it has more than one word, even alone', () => {
    expect(separate('Materials and methodsWe studied 12 women.')).toEqual({
      text: 'Materials and methods: We studied 12 women.',
      separated: 1,
    });
    expect(separate('Main outcome measuresDeath at 30 days.').text).toBe('Main outcome measures: Death at 30 days.');
    expect(separate('Trial registrationNCT01234567.').text).toBe('Trial registration: NCT01234567.');
    expect(separate('Design/methodology/approachThe paper reviews 40 cases.').text).toBe(
      'Design/methodology/approach: The paper reviews 40 cases.',
    );
    expect(separate('Introduction.\n\nPatients and methodsWe studied 12.').text).toBe(
      'Introduction.\n\nPatients and methods: We studied 12.',
    );
  });

  it('separates a one-word heading glued at the start when the text has another heading', () => {
    // Another glued heading, glued after a sentence or at the start of another paragraph.
    expect(separate('BackgroundWe ask.ResultsYes.')).toEqual({
      text: 'Background: We ask.\n\nResults: Yes.',
      separated: 2,
    });
    expect(separate('BackgroundWe ask.\n\nMethodsWe did.\n\nResultsYes.')).toEqual({
      text: 'Background: We ask.\n\nMethods: We did.\n\nResults: Yes.',
      separated: 3,
    });
    // A heading already written `Heading:` also shows the abstract is structured.
    expect(separate('ObjectiveTo test.Methods: We did.')).toEqual({
      text: 'Objective: To test.\n\nMethods: We did.',
      separated: 2,
    });
    expect(separate('ObjectiveTo test.\n\nMethods: We did.')).toEqual({
      text: 'Objective: To test.\n\nMethods: We did.',
      separated: 1,
    });
    // A heading word followed by a space is no heading, and no evidence.
    expect(separate('ContextCapture is used. Results are good.')).toEqual({
      text: 'ContextCapture is used. Results are good.',
      separated: 0,
    });
  });

  it('at the start of a paragraph writes no blank line before the heading', () => {
    expect(separate('First paragraph.\n\nResultsWe found X.\n\nConclusion: Good.')).toEqual({
      text: 'First paragraph.\n\nResults: We found X.\n\nConclusion: Good.',
      separated: 1,
    });
  });

  it('starts a new paragraph for a heading with its colon glued to the sentence before it', () => {
    expect(separate('We summarise the models.Materials and methods: A search was done.Results: 12 studies.')).toEqual({
      text: 'We summarise the models.\n\nMaterials and methods: A search was done.\n\nResults: 12 studies.',
      separated: 2,
    });
  });

  it('returns the same string when there is nothing to separate', () => {
    const text = `${'An ordinary sentence, with (brackets) and "quotes". '.repeat(50)}End.`;
    expect(separate(text).text).toBe(text);
  });
});
