/**
 * The journals, series and books the sample generator draws from. Invented but realistic:
 * journal names, ids and ISSNs are made up for the sample and must not be read
 * as facts about real journals. Every ISSN here has a correct ISO 3297 check
 * digit and every ISBN stem gets its ISBN-13 check digit computed, so the
 * catalogue's journals, series and books have identifiers a knowledge graph can
 * key on (test/sample/generateRecords.test.ts checks them).
 *
 * Each journal and each book is one consistent set: the generator copies its
 * name, identifiers and publisher pair unchanged into every record that names it.
 */

/** A journal of the generated catalogue. */
export interface SampleJournal {
  name: string;
  id: string;
  issn: string;
  eIssn: string;
  /** DOI prefix: 10.1007 (Springer) or 10.1186 (BioMed Central). */
  prefix: '10.1007' | '10.1186';
  /** The publishing house (`publisher`), e.g. Springer. */
  publisher: string;
  /**
   * The imprint (`publisherName`): the same as `publisher` for most journals,
   * BioMed Central for the BMC journals (publisher Springer), Springer Medizin
   * for the German medical ones, as the real service sends them.
   */
  publisherName: string;
  /** Year of volume 1: an article of year Y is in volume Y - firstYear + 1. */
  firstYear: number;
  /**
   * Continuous publication (the BMC journals): volumes but no issues, so
   * `number` is always empty.
   */
  continuous: boolean;
  /** Main language of the journal's articles. */
  language: string;
  discipline: { id: string; term: string };
  subjects: readonly string[];
}

const LIFE = { id: '3071', term: 'Life Sciences' };
const MED = { id: '3054', term: 'Medicine & Public Health' };
const CS = { id: '3011', term: 'Computer Science' };
const CHEM = { id: '3007', term: 'Chemistry' };
const MATH = { id: '3056', term: 'Mathematics' };
const ENG = { id: '3023', term: 'Engineering' };
const ENV = { id: '3026', term: 'Environment' };
const PHYS = { id: '3068', term: 'Physics' };

function journal(
  name: string,
  id: string,
  issn: string,
  eIssn: string,
  language: string,
  discipline: { id: string; term: string },
  subjects: string[],
  imprint: 'Springer' | 'BioMed Central' | 'Springer Medizin' = 'Springer',
): SampleJournal {
  const bmc = imprint === 'BioMed Central';
  return {
    name,
    id,
    issn,
    eIssn,
    prefix: bmc ? '10.1186' : '10.1007',
    publisher: 'Springer',
    publisherName: imprint,
    firstYear: 1960 + (Number(id) % 45),
    continuous: bmc,
    language,
    discipline,
    subjects: [discipline.term, ...subjects],
  };
}

/**
 * Journals: mostly English, some German, French, Spanish and Japanese ones.
 * Ids and ISSNs are unique; four journals have only an electronic ISSN (the
 * three BMC ones and a French one) and one only a print ISSN.
 */
export const JOURNALS: readonly SampleJournal[] = [
  journal('Metabolomics', '11306', '1573-3882', '1573-3890', 'en', LIFE, [
    'Biochemistry, general',
    'Molecular Medicine',
    'Cell Biology',
  ]),
  journal('Phytochemistry Reviews', '11101', '1568-7767', '1572-980X', 'en', LIFE, [
    'Plant Sciences',
    'Organic Chemistry',
  ]),
  journal('Computational Visual Media', '41095', '2096-0433', '2096-0662', 'en', CS, [
    'Computer Graphics',
    'Artificial Intelligence',
    'Image Processing and Computer Vision',
  ]),
  journal('Forensic Science, Medicine, and Pathology', '12024', '1547-769X', '1556-2891', 'en', MED, [
    'Forensic Medicine',
    'Pathology',
  ]),
  journal('Annals of Surgical Oncology', '10434', '1068-9265', '1534-4681', 'en', MED, [
    'Surgery',
    'Oncology',
    'Surgical Oncology',
  ]),
  journal('Journal of Materials Science', '10853', '0022-2461', '1573-4803', 'en', ENG, [
    'Material Science',
    'Characterization and Evaluation of Materials',
    'Nanotechnology',
  ]),
  journal('Environmental Science and Pollution Research', '11356', '0944-1344', '1614-7499', 'en', ENV, [
    'Environment, general',
    'Ecotoxicology',
    'Atmospheric Protection/Air Quality Control/Air Pollution',
  ]),
  journal('Hydrobiologia', '10750', '0018-8158', '1573-5117', 'en', LIFE, [
    'Ecology',
    'Freshwater & Marine Ecology',
    'Zoology',
  ]),
  journal('Archives of Virology', '705', '0304-8608', '1432-8798', 'en', MED, [
    'Virology',
    'Infectious Diseases',
    'Medical Microbiology',
  ]),
  journal("Child's Nervous System", '381', '0256-7040', '1433-0350', 'en', MED, [
    'Neurosurgery',
    'Pediatrics',
    'Neurology',
  ]),
  journal('Mathematische Annalen', '208', '0025-5831', '1432-1807', 'en', MATH, [
    'Mathematics, general',
    'Analysis',
    'Geometry',
  ]),
  journal('Journal of Thermal Analysis and Calorimetry', '10973', '1388-6150', '1588-2926', 'en', CHEM, [
    'Physical Chemistry',
    'Analytical Chemistry',
    'Polymer Sciences',
  ]),
  journal('The European Physical Journal C', '10052', '1434-6044', '1434-6052', 'en', PHYS, [
    'Elementary Particles, Quantum Field Theory',
    'Nuclear Physics, Heavy Ions, Hadrons',
  ]),
  journal(
    'BMC Bioinformatics',
    '12859',
    '',
    '1471-2105',
    'en',
    LIFE,
    ['Bioinformatics', 'Microarrays', 'Computational Biology/Bioinformatics'],
    'BioMed Central',
  ),
  journal(
    'Malaria Journal',
    '12936',
    '',
    '1475-2875',
    'en',
    MED,
    ['Infectious Diseases', 'Parasitology', 'Tropical Medicine'],
    'BioMed Central',
  ),
  journal(
    'Journal of Cheminformatics',
    '13321',
    '',
    '1758-2946',
    'en',
    CHEM,
    ['Computational Biology/Bioinformatics', 'Documentation and Information in Chemistry'],
    'BioMed Central',
  ),
  journal('Der Hautarzt', '105', '0017-8470', '1432-1173', 'de', MED, ['Dermatology'], 'Springer Medizin'),
  journal(
    'Zeitschrift für Gerontologie und Geriatrie',
    '391',
    '0948-6704',
    '1435-1269',
    'de',
    MED,
    ['Geriatrics/Gerontology', 'Internal Medicine'],
    'Springer Medizin',
  ),
  journal('Informatik Spektrum', '287', '0170-6012', '1432-122X', 'de', CS, [
    'Computer Science, general',
    'Information Systems and Communication Service',
  ]),
  journal('Revue Française de Génie Électrique', '42108', '1295-490X', '', 'fr', ENG, [
    'Electrical Engineering',
    'Energy Systems',
  ]),
  journal('Éducation et Sociétés Numériques', '44121', '', '2430-7726', 'fr', CS, [
    'Computers and Education',
    'Educational Technology',
  ]),
  journal('Revista Española de Cardiología Clínica', '43233', '1889-0784', '2530-0180', 'es', MED, [
    'Cardiology',
    'Internal Medicine',
  ]),
  journal('日本生態学会誌', '11284', '0021-5007', '2424-127X', 'ja', LIFE, ['Ecology', 'Plant Sciences']),
  journal('Journal of Plant Research', '10265', '0918-9440', '1618-0860', 'en', LIFE, [
    'Plant Sciences',
    'Plant Biochemistry',
    'Plant Physiology',
  ]),
];

/** A book series (identified by its ISSNs; the records carry no series id). */
export interface SampleSeries {
  issn: string;
  eIssn: string;
  /** The book's volume number in the series. */
  volume: string;
}

/** A book (for chapters and protocols). */
export interface SampleBook {
  title: string;
  /** ISBN-13 stems (12 digits, check digit computed). */
  printStem: string;
  electronicStem: string;
  /** Chapter DOIs are `10.1007/<electronic ISBN with hyphens>_<n>`. */
  electronicHyphenated: string;
  printHyphenated: string;
  /** The imprint (`publisherName`); `publisher` is Springer for every book. */
  publisherName: string;
  /** The book series and the book's number in it (`volume` of every chapter). */
  series?: SampleSeries;
  language: string;
  discipline: { id: string; term: string };
  subjects: readonly string[];
}

function book(
  title: string,
  print: string,
  electronic: string,
  publisherName: string,
  language: string,
  discipline: { id: string; term: string },
  subjects: string[],
  series?: SampleSeries,
): SampleBook {
  return {
    title,
    printStem: print.replace(/-/g, ''),
    electronicStem: electronic.replace(/-/g, ''),
    printHyphenated: print,
    electronicHyphenated: electronic,
    publisherName,
    language,
    discipline,
    subjects: [discipline.term, ...subjects],
    ...(series ? { series } : {}),
  };
}

/** Books of chapters (edited volumes, proceedings). ISBN stems without check digit. */
export const BOOKS: readonly SampleBook[] = [
  book(
    'Advances in Visual Computing',
    '978-3-030-64555',
    '978-3-030-64556',
    'Springer International Publishing',
    'en',
    CS,
    ['Image Processing and Computer Vision', 'Computer Graphics'],
  ),
  book('Handbook of Climate Change Mitigation', '978-1-4419-7990', '978-1-4419-7991', 'Springer New York', 'en', ENV, [
    'Climate Change',
    'Environmental Management',
  ]),
  book(
    'Grundlagen der Wirtschaftsinformatik',
    '978-3-662-63046',
    '978-3-662-63047',
    'Springer Berlin Heidelberg',
    'de',
    CS,
    ['Business Information Systems'],
  ),
  book('Nanomaterials for Energy Storage', '978-981-16-1232', '978-981-16-1233', 'Springer Singapore', 'en', ENG, [
    'Nanotechnology',
    'Energy Storage',
  ]),
  book(
    'La géométrie algébrique aujourd’hui',
    '978-3-031-01234',
    '978-3-031-01235',
    'Springer International Publishing',
    'fr',
    MATH,
    ['Algebraic Geometry'],
  ),
];

const METHODS = { issn: '1064-3745', eIssn: '1940-6029' };

/** Protocol books (a methods series): each book has its own volume number in the series. */
export const PROTOCOL_BOOKS: readonly SampleBook[] = [
  book(
    'CRISPR Guide RNA Design',
    '978-1-0716-1011',
    '978-1-0716-1012',
    'Humana',
    'en',
    LIFE,
    ['Molecular Medicine', 'Genetic Engineering'],
    { ...METHODS, volume: '2162' },
  ),
  book(
    'Plant Stress Tolerance',
    '978-1-0716-3972',
    '978-1-0716-3973',
    'Humana',
    'en',
    LIFE,
    ['Plant Sciences', 'Plant Biochemistry'],
    { ...METHODS, volume: '2642' },
  ),
  book(
    'Proteomics for Drug Discovery',
    '978-1-4939-2549',
    '978-1-4939-2550',
    'Humana Press',
    'en',
    LIFE,
    ['Protein Science', 'Pharmacology/Toxicology'],
    { ...METHODS, volume: '1259' },
  ),
];
