/**
 * fast-check arbitraries for the fuzz suite: hostile strings, records with
 * every field of the service's record (seed §2.3, the v1 fields of §2.5 and
 * the spellings real responses use), envelopes, and the byte-level shapes
 * users feed `convert` (compact, pretty, CRLF, raw newlines in strings,
 * NDJSON, BOM).
 */
import fc from 'fast-check';

/** Characters that broke (or could break) one of the formats, the reader or the IRI minting. */
export const NASTY_CHARS: readonly string[] = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000B',
  '\u000C',
  '\u001B',
  '\u001F',
  '\u007F',
  '\u0085',
  '\u009F',
  '\t',
  '\n',
  '\r',
  '\r\n',
  ' ',
  '\u00A0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\u200B',
  '\u00AD',
  '\uFFFE',
  '\uFFFF',
  '\uFFFD',
  '\uFEFF',
  '\uFDD0',
  '\uE000',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uDC00\uD800',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2069',
  '\\',
  '"',
  "'",
  '<',
  '>',
  '{',
  '}',
  '|',
  '^',
  '`',
  '&',
  '%',
  '%2',
  '%zz',
  '%41',
  '#',
  '?',
  '[',
  ']',
  '/',
  '.',
  '..',
  ':',
  ';',
  ',',
  '@',
  '=',
  '+',
  '_:',
  '@id',
  '@type',
  '@context',
  ']]>',
  '--',
  '<!--',
  '<![CDATA[',
  '&amp;',
  '&#0;',
  '"""',
  "'''",
  '\\u0000',
  '\\n',
  'e\u0301',
  '\u0130',
  '\uFB01',
  '😀',
  '\uD83D\uDE00',
  '\u{10FFFF}',
  '\u{E0001}',
  'ẞ',
  'AbstractWe',
  'Zusammenfassung',
  'doi:',
  'https://',
  '10.1007/',
  '0000-0002-1825-0097',
  'http://schema.org/',
];

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));

/** One "character" of a hostile string: mostly printable, often nasty. */
export const nastyChar: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 6 },
  { arbitrary: fc.constantFrom(...NASTY_CHARS), weight: 4 },
  { arbitrary: anyCodeUnit, weight: 1 },
  { arbitrary: anyCodePoint, weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 },
);

/** A hostile string (empty included). */
export const nastyString = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: nastyChar, maxLength });

/** Nested junk: any JSON value, sometimes nested a little deeper. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1, max: 40 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown),
  fc.integer({ min: 1, max: 40 }).map((n) => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown),
);

/** A wrong value where a string belongs (also nulls, numbers and booleans, which the normaliser accepts). */
const wrongScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.array(nastyString(8), { maxLength: 3 }),
  fc.dictionary(nastyString(6), nastyString(6), { maxKeys: 3 }),
  junk,
);

/** A field value: the good shape mostly, sometimes empty, blank or of a wrong type. */
function field<T>(good: fc.Arbitrary<T>, wrong: fc.Arbitrary<unknown> = wrongScalar): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: good, weight: 20 },
    { arbitrary: fc.constantFrom('', ' ', '\t\n'), weight: 2 },
    { arbitrary: wrong, weight: 1 },
  );
}

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** A DOI: mostly `10.<digits>/<hostile suffix>`, sometimes not a DOI at all. */
export const doiArb: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.tuple(digits(1, 6), nastyString(20)).map(([r, s]) => `10.${r}/${s.trim() === '' ? 'x' : s}`),
    weight: 12,
  },
  {
    arbitrary: fc.tuple(digits(4, 5), fc.stringMatching(/^[a-z0-9.()<>;:_-]{1,20}$/)).map(([r, s]) => `10.${r}/${s}`),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom(
      '10.1007/s11306-017-1242-7',
      '10.1000/./x',
      '10.1000/../..',
      '10.1000/a#b?c',
      '10.1000/ spaced ',
      '10.1/%',
      '10.1/<>"{}|\\^`',
    ),
    weight: 2,
  },
  { arbitrary: nastyString(12), weight: 1 },
);

const dateArb = fc.oneof(
  fc
    .date({ min: new Date('1800-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.tuple(digits(4, 4), digits(2, 2), digits(2, 2)).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(digits(4, 4), digits(2, 2)).map(([y, m]) => `${y}-${m}`),
  nastyString(12),
);

const hostArb = fc.oneof(
  fc.constantFrom(
    'link.springer.com',
    'doi.org',
    'dx.doi.org',
    'example.org',
    'EX.ORG',
    'exé.org',
    '-bad.org',
    'a..b',
    '[::1]',
    '127.0.0.1',
    'user:pw@ex.org',
    'ex.org:80',
    'ex.org:443',
    'ex.org:abc',
    'ex.org:',
    '',
  ),
  fc.domain(),
);

/** A URL as records carry them: good ones, bad ones, and not URLs at all. */
export const urlArb: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.constantFrom('http', 'https', 'HTTP', 'ftp'), hostArb, nastyString(20))
      .map(([s, h, p]) => `${s}://${h}/${p}`),
    weight: 6,
  },
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 3 },
  {
    arbitrary: fc
      .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9+.-]{0,8}$/), nastyString(16))
      .map(([s, r]) => `${s}:${r}`),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom(
      'schema:name',
      'bibo:x',
      'xsd:int',
      'mailto:a@b.c',
      'urn:isbn:123',
      'doi:10.1/x',
      'javascript:alert(1)',
      'http:foo',
      'http://',
      'www.example.org/x',
      '//ex.org/x',
      'https://doi.org/10.1007/s1 2',
    ),
    weight: 2,
  },
  { arbitrary: nastyString(16), weight: 1 },
);

const orcidArb = fc.oneof(
  fc.constantFrom(
    '0000-0002-1825-0097',
    '0000-0001-5109-393x',
    'https://orcid.org/0000-0002-1825-0097',
    'http://www.orcid.org/0000-0002-1825-0097',
    ' 0000-0002-1825-0097 ',
    '0000 0002 1825 0097',
    'orcid.org/0000-0002-1825-0097',
  ),
  fc
    .tuple(digits(4, 4), digits(4, 4), digits(4, 4), digits(3, 3), fc.constantFrom('0', '9', 'X', 'x'))
    .map((p) => `${p[0]}-${p[1]}-${p[2]}-${p[3]}${p[4]}`),
  nastyString(20),
);

const pageArb = fc.oneof(
  digits(1, 5),
  fc.constantFrom('1', 'iv', 'xii', 'e1234', 'S15', '1-6, 9', '123–130', 'S15 S17'),
  nastyString(8),
);

const languageArb = fc.oneof(
  fc.constantFrom(
    'en',
    'de',
    'EN',
    'en-GB',
    'zh-Hant-TW',
    'x',
    '123',
    'en_US',
    'abcdefghi',
    'en-',
    '-en',
    'i-klingon',
    'x-private',
  ),
  nastyString(6),
);

const creatorArb = fc.oneof(
  {
    arbitrary: fc.record({ creator: field(nastyString(30)), ORCID: field(orcidArb) }, { requiredKeys: [] }),
    weight: 10,
  },
  {
    arbitrary: fc.record(
      { name: field(nastyString(20)), orcid: field(orcidArb), affiliation: junk },
      { requiredKeys: [] },
    ),
    weight: 1,
  },
  { arbitrary: nastyString(20), weight: 1 },
  { arbitrary: wrongScalar, weight: 1 },
);

const urlEntryArb = fc.oneof(
  {
    arbitrary: fc.record(
      {
        format: field(fc.constantFrom('html', 'pdf', '', 'epub', 'xml', 'PDF', 'text/plain')),
        platform: field(fc.constantFrom('web', '', 'mobile')),
        value: field(urlArb),
      },
      { requiredKeys: [] },
    ),
    weight: 10,
  },
  { arbitrary: urlArb, weight: 1 },
  { arbitrary: wrongScalar, weight: 1 },
);

const abstractArb = fc.oneof(
  { arbitrary: nastyString(120), weight: 6 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('Abstract', 'Summary', 'Zusammenfassung', ''), nastyString(60))
      .map(([h, t]) => h + t),
    weight: 2,
  },
  {
    arbitrary: fc.record(
      { h1: field(nastyString(12)), p: fc.oneof(nastyString(60), fc.array(field(nastyString(40)), { maxLength: 4 })) },
      { requiredKeys: [] },
    ),
    weight: 2,
  },
  { arbitrary: fc.record({ h1: nastyString(5), p: nastyString(5), extra: junk }), weight: 1 },
);

const disciplineArb = fc.oneof(
  {
    arbitrary: fc.record(
      { id: field(nastyString(10)), term: field(nastyString(20)), extra: junk },
      { requiredKeys: [] },
    ),
    weight: 8,
  },
  { arbitrary: nastyString(10), weight: 1 },
  { arbitrary: wrongScalar, weight: 1 },
);

const conferenceArb = fc.oneof(
  fc.record(
    { confName: field(nastyString(20)), confSeriesName: nastyString(10), confStartDate: dateArb },
    { requiredKeys: [] },
  ),
  nastyString(20),
  junk,
);

const list = <T>(item: fc.Arbitrary<T>, maxLength = 4) => fc.array(item, { maxLength });

/** Every field of a record (§2.3 and §2.5), each optional, with wrong types now and then. */
const RECORD_MODEL = {
  contentType: field(
    fc.oneof(fc.constantFrom('Article', 'Chapter', 'Book', 'Journal Article', 'Protocol'), nastyString(10)),
  ),
  identifier: field(
    fc.oneof(
      doiArb.map((d) => `doi:${d}`),
      nastyString(12),
    ),
  ),
  language: field(languageArb),
  url: field(
    fc.oneof(
      { arbitrary: list(urlEntryArb), weight: 6 },
      { arbitrary: urlArb, weight: 1 },
      { arbitrary: urlEntryArb, weight: 1 },
    ),
  ),
  title: field(nastyString(60)),
  creators: field(fc.oneof({ arbitrary: list(creatorArb, 6), weight: 8 }, { arbitrary: creatorArb, weight: 1 })),
  publicationName: field(nastyString(30)),
  openaccess: field(fc.oneof(fc.constantFrom('true', 'false', 'TRUE', 'False', 'yes', '1'), nastyString(6))),
  doi: field(doiArb),
  publisher: field(nastyString(20)),
  publisherName: field(nastyString(30)),
  publicationDate: field(dateArb),
  publicationType: field(fc.oneof(fc.constantFrom('Journal', 'Book', 'BookSeries', 'journal'), nastyString(8))),
  issn: field(fc.oneof(fc.constantFrom('1573-3890', '0000-000X'), nastyString(10))),
  eIssn: field(fc.oneof(fc.constantFrom('1573-3890', '1234-5678'), nastyString(10))),
  volume: field(fc.oneof(digits(1, 4), nastyString(8))),
  number: field(fc.oneof(digits(1, 3), nastyString(8))),
  issueType: field(fc.oneof(fc.constantFrom('Regular', 'Supplement'), nastyString(8))),
  topicalCollection: field(nastyString(20)),
  genre: field(fc.oneof(list(field(nastyString(15))), nastyString(15))),
  startingPage: field(pageArb),
  endingPage: field(pageArb),
  journalId: field(fc.oneof(digits(1, 6), nastyString(8))),
  onlineDate: field(dateArb),
  coverDate: field(dateArb),
  copyright: field(nastyString(40)),
  abstract: field(abstractArb),
  conferenceInfo: field(list(conferenceArb, 3)),
  subjects: field(fc.oneof(list(field(nastyString(15)), 6), nastyString(15))),
  disciplines: field(fc.oneof(list(disciplineArb), disciplineArb)),
  // Spellings and fields of other endpoints and years.
  journalid: field(digits(1, 6)),
  issuetype: field(nastyString(8)),
  openAccess: field(fc.constantFrom('true', 'false')),
  journalTitle: field(nastyString(20)),
  printIsbn: field(fc.oneof(fc.constantFrom('978-3-16-148410-0'), nastyString(12))),
  electronicIsbn: field(nastyString(12)),
  isbn: field(nastyString(12)),
  keyword: field(list(nastyString(10))),
};

/** A record object: any subset of the known fields, plus extra keys with junk values. */
export const recordObjectArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(RECORD_MODEL, { requiredKeys: [] }),
    fc.dictionary(nastyString(10), junk, { maxKeys: 3 }),
    fc.boolean(),
  )
  .map(([known, extra, doiFirst]) => {
    // Extra keys must not shadow known ones (their spelling decides which wins) nor turn the record into an envelope.
    const lower = new Set(
      [...Object.keys(RECORD_MODEL), 'records', 'status', 'keywords', 'name'].map((k) => k.toLowerCase()),
    );
    const safeExtra = Object.fromEntries(
      Object.entries(extra).filter(([k]) => !lower.has(k.toLowerCase()) && k !== '__proto__'),
    );
    return doiFirst && 'doi' in known ? { doi: known.doi, ...known, ...safeExtra } : { ...safeExtra, ...known };
  });

/** What stands in a `records` array: mostly records, sometimes not a record at all (never an array). */
export const recordArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: recordObjectArb, weight: 20 },
  { arbitrary: fc.oneof(fc.constant(null), nastyString(10), fc.integer(), fc.boolean(), fc.constant({})), weight: 1 },
);

const pagingArb = fc.record(
  {
    total: field(digits(1, 5)),
    start: field(digits(1, 3)),
    pageLength: field(digits(1, 3)),
    recordsDisplayed: field(digits(1, 3)),
  },
  { requiredKeys: [] },
);

/** A parsed input and how many records it holds. */
export interface GeneratedInput {
  /** The JSON value(s): one document, or the lines of NDJSON. */
  values: unknown[];
  /** The records the input holds, each of which must come out written or rejected. */
  records: number;
  /** How the value is written to bytes. */
  layout: 'compact' | 'pretty' | 'crlf' | 'raw-newlines' | 'bom' | 'ndjson';
}

const envelopeV2 = fc
  .tuple(fc.array(recordArb, { maxLength: 5 }), pagingArb, nastyString(20), fc.option(junk, { nil: undefined }))
  .map(([records, paging, query, facets]) => ({
    value: {
      apiMessage: 'This JSON was provided by the service',
      query,
      apiKey: '<API_KEY>',
      result: [paging],
      records,
      ...(facets !== undefined ? { facets } : {}),
    } as unknown,
    records: records.length,
  }));

const envelopeV1 = fc
  .tuple(
    fc.array(
      fc.record(
        {
          title: field(nastyString(30)),
          doi: field(doiArb),
          abstract: field(nastyString(60)),
          publicationDate: field(dateArb),
          journalTitle: field(nastyString(20)),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 5 },
    ),
    pagingArb,
  )
  .map(([records, paging]) => ({
    value: { query: 'q', result: [paging], records } as unknown,
    records: records.length,
  }));

const bareArray = fc
  .array(recordArb, { maxLength: 5 })
  .map((records) => ({ value: records as unknown, records: records.length }));
const single = recordArb.map((r) => ({ value: r, records: 1 }));

/** One JSON document or NDJSON stream of records, with the count of records it holds. */
export const inputArb: fc.Arbitrary<GeneratedInput> = fc.oneof(
  fc
    .tuple(
      fc.oneof(envelopeV2, envelopeV1, bareArray, single),
      fc.constantFrom('compact', 'pretty', 'crlf', 'raw-newlines', 'bom') as fc.Arbitrary<GeneratedInput['layout']>,
    )
    .map(([{ value, records }, layout]) => ({ values: [value], records, layout })),
  fc
    .array(fc.oneof({ arbitrary: single, weight: 4 }, { arbitrary: envelopeV2, weight: 1 }), {
      minLength: 1,
      maxLength: 5,
    })
    .map((docs) => ({
      values: docs.map((d) => d.value),
      records: docs.reduce((n, d) => n + d.records, 0),
      layout: 'ndjson' as const,
    })),
);

/** The bytes of a generated input, laid out as users' files are. */
export function layoutInput(input: GeneratedInput): string {
  const [first] = input.values;
  switch (input.layout) {
    case 'compact':
      return JSON.stringify(first);
    case 'pretty':
      return `${JSON.stringify(first, null, 2)}\n`;
    case 'crlf':
      return `${JSON.stringify(first, null, 2).replace(/\n/g, '\r\n')}\r\n`;
    case 'bom':
      return `\uFEFF${JSON.stringify(first, null, 1)}`;
    case 'raw-newlines':
      // Old saved responses: line breaks and tabs inside strings written raw (not valid JSON; the reader repairs them).
      // (An escaped backslash is matched first, so `\\\\n` stays a backslash and an n.)
      return JSON.stringify(first, null, 2).replace(/\\\\|\\r\\n|\\n|\\t/g, (m) =>
        m === '\\\\' ? m : m === '\\t' ? '\t' : m === '\\n' ? '\n' : '\r\n',
      );
    case 'ndjson':
      return `${input.values.map((v) => JSON.stringify(v)).join('\n')}\n`;
  }
}
