import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { doiInQuery } from '../../src/client/doiInQuery.js';
import { Catalogue, decodeDoiEscapes, loadCatalogue } from '../../src/server/Catalogue.js';
import { evaluateQuery } from '../../src/server/evaluateQuery.js';
import { parseQuery } from '../../src/server/parseQuery.js';
import { tokenize } from '../../src/server/foldText.js';
import { tempDir } from '../helpers/tempDir.js';

const records: Record<string, unknown>[] = [
  {
    doi: '10.1007/s11306-017-1242-7',
    title: 'Navigating freely-available software tools for metabolomics analysis',
    creators: [{ creator: 'Spicer, Rachel' }, { creator: 'Cañueto, Daniel', ORCID: '0000-0002-1825-0097' }],
    publicationName: 'Metabolomics',
    publicationDate: '2017-08-09',
    onlineDate: '2017-08-01',
    publicationType: 'Journal',
    contentType: 'Article',
    issn: '1573-3882',
    eIssn: '1573-3890',
    journalId: '11306',
    language: 'en',
    openaccess: 'true',
    subjects: ['Life Sciences', 'Cell Biology', 'Life Sciences'],
    keyword: ['Software', 'Data analysis'],
    _countries: ['Germany', 'Spain'],
  },
  {
    doi: '10.1007/978-3-030-64556-4_7',
    title: 'Deep learning for urban visual analytics',
    creators: [{ creator: 'Müller, Jürgen' }],
    publicationName: 'Advances in Visual Computing',
    publicationDate: '2020-12-01',
    onlineDate: '2020-11-20',
    publicationType: 'Book',
    contentType: 'Chapter',
    printIsbn: '978-3-030-64555-7',
    electronicIsbn: '978-3-030-64556-4',
    language: 'de',
    openAccess: 'false',
    subjects: ['Computer Science'],
    disciplines: [{ id: '3011', term: 'Computer Science' }],
  },
  {
    doi: '10.1002/(SICI)1097-4636(199712)37:4<548::AID-JBM13>3.0.CO;2-A',
    title: 'Analysis of visual tools',
    creators: ['Smith, John'],
    publicationName: 'Journal of Biomedical Materials Research',
    publicationDate: '1997-12-01',
    onlineDate: '',
    publicationType: 'Journal',
    journalid: '4636',
    language: 'en',
    openaccess: 'false',
    subjects: ['Materials Science'],
    keyword: 'Biomaterials',
  },
];

const catalogue = Catalogue.fromRecords(records);

function find(q: string, allowEquals = false): number[] {
  return [...evaluateQuery(catalogue, parseQuery(q, { allowEquals }))];
}

describe('Catalogue', () => {
  describe('queries', () => {
    it('matches exact-value fields whatever the key spelling', () => {
      expect(find('doi:10.1007/S11306-017-1242-7')).toEqual([0]);
      expect(find('doi:10.1002/(SICI)1097-4636(199712)37:4<548::AID-JBM13>3.0.CO;2-A')).toEqual([2]);
      expect(find('doi=10.1007/978-3-030-64556-4_7', true)).toEqual([1]);
      expect(find('doi:10.1007*')).toEqual([0, 1]);
      expect(find('doi:10.1007/978*')).toEqual([1]);
      expect(find('doi:10.1002/(sici)*')).toEqual([2]);
      expect(find('doi:10.1007/s11306-017-1242')).toEqual([]);
      expect(find('journalid:4636')).toEqual([2]);
      expect(find('journalid:11306')).toEqual([0]);
      expect(find('openaccess:false')).toEqual([1, 2]);
      expect(find('issn:15733890')).toEqual([0]);
      expect(find('isbn:9783030645557')).toEqual([1]);
      expect(find('type:Book')).toEqual([1]);
      expect(find('type:chapter')).toEqual([1]);
      expect(find('language:de')).toEqual([1]);
      expect(find('country:spain')).toEqual([0]);
      expect(find('pub:metabolomics')).toEqual([0]);
      expect(find('subject:"computer science"')).toEqual([1]);
      expect(find('subject:Life*')).toEqual([0]);
      expect(find('keyword:biomaterials')).toEqual([2]);
    });

    it('matches words of titles, names and journals, accent- and case-insensitively', () => {
      expect(find('title:visual')).toEqual([1, 2]);
      expect(find('name:canueto')).toEqual([0]);
      expect(find('name:MÜLLER')).toEqual([1]);
      expect(find('journal:visual')).toEqual([1]);
      expect(find('title:analy*')).toEqual([0, 1, 2]);
    });

    it('matches phrases only in order', () => {
      expect(find('"visual analytics"')).toEqual([1]);
      expect(find('"analytics visual"')).toEqual([]);
      expect(find('title:"visual tools"')).toEqual([2]);
      expect(find('name:"spicer rachel"')).toEqual([0]);
    });

    it('matches free words in titles, names, journals, subjects and keywords', () => {
      expect(find('software')).toEqual([0]);
      expect(find('smith')).toEqual([2]);
      expect(find('computing')).toEqual([1]);
      expect(find('biology')).toEqual([0]);
      expect(find('nothing-like-this')).toEqual([]);
    });

    it('combines with AND, OR, NOT and parentheses', () => {
      expect(find('visual AND NOT type:Book')).toEqual([2]);
      expect(find('visual -x')).toEqual([]);
      expect(find('NOT visual')).toEqual([0]);
      expect(find('NOT (year:2017 OR year:2020)')).toEqual([2]);
      expect(find('(year:2017 OR year:1997) openaccess:false')).toEqual([2]);
      expect(find('year:2017 OR year:2020 OR language:en')).toEqual([0, 1, 2]);
    });

    it('matches dates and date ranges', () => {
      expect(find('year:2020')).toEqual([1]);
      expect(find('date:2017')).toEqual([0]);
      expect(find('date:2017-08')).toEqual([0]);
      expect(find('date:2017-08-09')).toEqual([0]);
      expect(find('onlinedate:2020-11-20')).toEqual([1]);
      expect(find('datefrom:2000')).toEqual([0, 1]);
      expect(find('dateto:2017-08-09')).toEqual([0, 2]);
      expect(find('datefrom:2017-08-10 dateto:2020-12')).toEqual([1]);
      expect(find('onlinedatefrom:1900')).toEqual([0, 1]);
      expect(find('onlinedateto:2017-12-31')).toEqual([0]);
    });
  });

  describe('phrases on generated records', () => {
    const generated = [...generateRecords(600, 11, { catalogueFields: true })] as unknown as Record<string, unknown>[];
    const c = Catalogue.fromRecords(generated);
    const words = (t: string) => tokenize(t).join(' ');
    const names = (r: Record<string, unknown>) => (r.creators as { creator: string }[]).map((x) => x.creator);
    const cases: [string, (r: Record<string, unknown>) => string[]][] = [
      ['title:"visual analytics"', (r) => [r.title as string]],
      ['title:"of the"', (r) => [r.title as string]],
      [`name:"${names(generated[5]!)[0]!.replace(/"/g, '')}"`, names],
      ['journal:"materials science"', (r) => [r.publicationName as string]],
      [
        '"life sciences"',
        (r) => [
          r.title as string,
          ...names(r),
          r.publicationName as string,
          ...(r.subjects as string[]),
          ...(r.keyword as string[]),
        ],
      ],
    ];
    for (const [q, texts] of cases) {
      it(`${q} finds exactly the records with the words in order`, () => {
        const phrase = words(q.slice(q.indexOf('"') + 1, -1));
        const expected = generated.flatMap((r, i) =>
          texts(r).some((t) => ` ${words(t)} `.includes(` ${phrase} `)) ? [i] : [],
        );
        expect(expected.length).toBeGreaterThan(0);
        expect([...evaluateQuery(c, parseQuery(q))]).toEqual(expected);
      });
    }
  });

  describe('records', () => {
    it('serves records without catalogue-only keys', () => {
      expect(catalogue.record(0)._countries).toBeUndefined();
      expect(JSON.parse(catalogue.recordJson(0))).toEqual(
        Object.fromEntries(Object.entries(records[0]!).filter(([k]) => k !== '_countries')),
      );
      expect(catalogue.recordJson(1)).toBe(JSON.stringify(records[1]));
    });

    it('drops catalogue-only keys wherever they are', () => {
      const dir = tempDir('hidden-');
      const file = join(dir, 'h.jsonl');
      const lines = [
        '{"doi":"a","title":"x","_countries":["DE"],"_keywords":["k"]}',
        '{"doi":"b","_countries":["DE"],"title":"x"}',
        '{"_countries":["DE"],"doi":"c"}',
        '{"doi":"d","_countries":{"z":1,"_countries":2}}',
        '{"doi":"e", "_countries" : ["DE"]}',
        '{"doi":"f,\\"_countries\\":","_countries":[",\\"_countries\\":["]}',
        '{"doi":"g","nested":{"_x":1}}',
      ];
      writeFileSync(file, lines.join('\n'));
      const c = loadCatalogue(file);
      const expected = [
        { doi: 'a', title: 'x' },
        { doi: 'b', title: 'x' },
        { doi: 'c' },
        { doi: 'd' },
        { doi: 'e' },
        { doi: 'f,"_countries":' },
        { doi: 'g', nested: { _x: 1 } },
      ];
      for (let i = 0; i < lines.length; i++) {
        expect(JSON.parse(c.recordJson(i)), lines[i]).toEqual(expected[i]);
        expect(c.record(i)).toEqual(expected[i]);
      }
      expect(c.rawRecord(0)._keywords).toEqual(['k']);
      expect([...evaluateQuery(c, parseQuery('country:DE'))]).toEqual([0, 1, 2, 4]);
    });
  });

  describe('facets', () => {
    it('counts each record once per value, by count then value, with "" for unknown countries', () => {
      const all = Int32Array.from([0, 1, 2]);
      expect(catalogue.facet('subject', all)).toEqual([
        { value: 'Cell Biology', count: '1' },
        { value: 'Computer Science', count: '1' },
        { value: 'Life Sciences', count: '1' },
        { value: 'Materials Science', count: '1' },
      ]);
      expect(catalogue.facet('type', all)).toEqual([
        { value: 'Journal', count: '2' },
        { value: 'Book', count: '1' },
      ]);
      expect(catalogue.facet('country', all)).toEqual([
        { value: '', count: '2' },
        { value: 'Germany', count: '1' },
        { value: 'Spain', count: '1' },
      ]);
      expect(catalogue.facet('year', Int32Array.from([2]))).toEqual([{ value: '1997', count: '1' }]);
      expect(catalogue.facet('keyword', all, 2)).toHaveLength(2);
    });
  });

  describe('loading', () => {
    const dir = tempDir('catalogue-');

    it('reads NDJSON (blank lines, CRLF, BOM) and JSON arrays alike', () => {
      const sample = [...generateRecords(30, 3)];
      const ndjson = join(dir, 'c.jsonl');
      writeFileSync(ndjson, '\uFEFF' + sample.map((r) => JSON.stringify(r)).join('\r\n\r\n') + '\r\n');
      const array = join(dir, 'c.json');
      writeFileSync(array, JSON.stringify(sample, null, 2));
      const a = loadCatalogue(ndjson);
      const b = loadCatalogue(array);
      expect(a.size).toBe(30);
      expect(b.size).toBe(30);
      for (let i = 0; i < 30; i++) {
        expect(a.record(i)).toEqual(sample[i]);
        expect(b.record(i)).toEqual(sample[i]);
      }
    });

    it('names the line of a bad record', () => {
      const file = join(dir, 'bad.jsonl');
      writeFileSync(file, '{"doi":"a"}\n\n{"doi": oops}\n');
      expect(() => loadCatalogue(file)).toThrow(/bad\.jsonl:3: not a JSON record/);
      writeFileSync(file, '{"doi":"a"}\n[1,2]\n');
      expect(() => loadCatalogue(file)).toThrow(/:2: a catalogue line must hold one JSON object/);
      expect(() => loadCatalogue(join(dir, 'missing.jsonl'))).toThrow(/cannot read the catalogue/);
    });

    it('reads lines longer than its read buffer and files of many chunks', () => {
      const file = join(dir, 'big.jsonl');
      const long = { doi: '10.1/long', title: 'x'.repeat(9_000_000) + ' needle' };
      writeFileSync(
        file,
        `${JSON.stringify({ doi: '10.1/a' })}\n${JSON.stringify(long)}\n${JSON.stringify({ doi: '10.1/b', title: 'needle' })}`,
      );
      const c = loadCatalogue(file);
      expect(c.size).toBe(3);
      expect([...evaluateQuery(c, parseQuery('title:needle'))]).toEqual([1, 2]);
      expect(c.record(2)).toEqual({ doi: '10.1/b', title: 'needle' });
    });
  });

  it('decodes percent-escapes in a doi: term, as the client writes DOIs the query syntax would misread', () => {
    const odd = ['10.1000/a b', '10.1000/50%off', '10.1000/star*', '10.1000/"q"', '10.1000/%41'];
    const c = Catalogue.fromRecords(odd.map((doi, i) => ({ doi, title: `t${i}` })));
    const lookup = (q: string) => [...evaluateQuery(c, parseQuery(q, {}))];
    odd.forEach((doi, i) => expect(lookup(`doi:${doiInQuery(doi)}`), doi).toEqual([i]));
    // A trailing * is a wildcard; written %2A it is part of the DOI.
    expect(lookup('doi:10.1000/star*')).toEqual([2]);
    expect(lookup('doi:10.1000/st*')).toEqual([2]);
    // A run of escapes that is no UTF-8 is looked up as it is.
    expect(decodeDoiEscapes('10.1/%ZZ%E2%82')).toBe('10.1/%ZZ%E2%82');
    expect(decodeDoiEscapes('10.1/%E2%82%AC%25')).toBe('10.1/€%');
  });
});
