/**
 * The torture corpus through `convert`, as a user runs it: for every file,
 * in all five formats, the exit code, the summary counts, one stderr line per
 * rejection naming the file, record and field, the rejects file, and output
 * that parses back (n3, jsonld.js, rdfxml-streaming-parser) — plus what each
 * file must come out as. Jena's and rapper's verdicts on the same outputs are
 * in test/integration/torture.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FORMATS } from './pipeline.js';
import {
  BIG_ABSTRACT_CHARS,
  BROKEN_LINES,
  MANY_CREATORS,
  TORTURE_CASES,
  bigAbstractText,
  brokenRecordLines,
  manyCreatorName,
  materialise,
} from './tortureCorpus.js';

const EXT = { turtle: 'ttl', ntriples: 'nt', nquads: 'nq', jsonld: 'jsonld', rdfxml: 'rdf' } as const;
const S = 'http://schema.org/';
const BIBO = 'http://purl.org/ontology/bibo/';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

let dir: string;
let paths: Map<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'torture-'));
  paths = materialise(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The N-Triples output of each case (converted once, in the first test), for the content checks. */
const ntriples = new Map<string, RDF.Quad[]>();
const stderrOf = new Map<string, string>();
const rejectsOf = new Map<string, string[]>();

const objectsOf = (quads: RDF.Quad[], predicate: string, subject?: string) =>
  quads
    .filter((q) => q.predicate.value === predicate && (subject === undefined || q.subject.value === subject))
    .map((q) => q.object.value);

/** The items of the RDF list starting at `head`, in order (an index of the cells, so that a 10,000-item list is cheap). */
function listItems(quads: RDF.Quad[], head: string): string[] {
  const first = new Map<string, string>();
  const rest = new Map<string, string>();
  for (const q of quads) {
    if (q.predicate.value === `${RDF_NS}first`) first.set(q.subject.value, q.object.value);
    else if (q.predicate.value === `${RDF_NS}rest`) rest.set(q.subject.value, q.object.value);
  }
  const items: string[] = [];
  const seen = new Set<string>();
  for (let cell = head; cell !== `${RDF_NS}nil`; cell = rest.get(cell)!) {
    if (seen.has(cell) || !first.has(cell)) throw new Error(`not a well-formed list at ${cell}`);
    seen.add(cell);
    items.push(first.get(cell)!);
  }
  return items;
}

describe('torture corpus through convert', () => {
  for (const c of TORTURE_CASES) {
    it(`${c.name}: ${c.what} → ${c.mapped} written, ${c.rejected} rejected, exit ${c.rejected ? 1 : 0}, output parses back${c.big ? ' (N-Triples)' : ' in all five formats'}`, async () => {
      const input = paths.get(c.name)!;
      // The big cases go through N-Triples here (a few seconds each); all five formats are judged by Jena in the integration suite.
      for (const { format, parse } of c.big ? FORMATS.filter((f) => f.format === 'ntriples') : FORMATS) {
        const out = join(dir, `${c.name}.${EXT[format]}`);
        const rejects = join(dir, `${c.name}.${format}.rejects.jsonl`);
        const r = await runCli(['convert', input, '-o', out, '--rejects', rejects, ...(c.options ?? [])]);
        expect(r.code, r.stderr).toBe(c.rejected ? 1 : 0);
        expect(r.stderr).toContain(`records read ${c.mapped + c.rejected}, mapped ${c.mapped}, rejected ${c.rejected}`);
        const printed = r.stderr.split('\n').filter((l) => l.startsWith('rejected: '));
        expect(printed).toHaveLength(c.rejected);
        for (const line of printed) expect(line).toMatch(c.rejection!);
        // Nothing unprintable reaches the terminal.
        expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
        if (c.rejected) {
          expect(r.stderr).toContain(`${c.rejected} record(s) rejected; the records and reasons are in ${rejects}`);
          const lines = readFileSync(rejects, 'utf8')
            .split('\n')
            .filter((l) => l !== '');
          expect(lines).toHaveLength(c.rejected);
          rejectsOf.set(c.name, lines);
        } else {
          expect(existsSync(rejects)).toBe(false);
        }
        const quads = await parse(readFileSync(out, 'utf8'));
        const works = new Set(
          quads.filter((q) => q.subject.value.startsWith('https://doi.org/')).map((q) => q.subject.value),
        );
        expect(works.size, format).toBe(c.mapped);
        if (format === 'ntriples') {
          ntriples.set(c.name, quads);
          stderrOf.set(c.name, r.stderr);
        }
      }
    });
  }
});

describe('what each torture file comes out as', () => {
  it('control characters are removed from text, white space among them collapsed (a paragraph break in the abstract), each change counted as a note', () => {
    const q = ntriples.get('control-characters.json')!;
    for (const quad of q) expect(quad.object.value).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(objectsOf(q, `${S}name`, 'https://doi.org/10.5555/ctl')).toEqual(['Titlewith NUL bell and DEL\u007F end']);
    // " \t\n\v\f\r" (several line breaks) is a paragraph break; NEL alone, a space. DEL and C1 controls stay.
    expect(objectsOf(q, `${S}abstract`)).toEqual(['All controls:\n\n\u007F \u009F (tab, LF and CR are kept)']);
    expect(objectsOf(q, `${S}url`)).toEqual(['http://example.org/ctlxy']);
    expect(stderrOf.get('control-characters.json')).toMatch(/notes \d+/);
  });

  it('lone surrogates become U+FFFD, U+FFFE/U+FFFF are removed, pairs and other non-characters are kept; the DOI IRI is percent-encoded', () => {
    const q = ntriples.get('surrogates-and-noncharacters.json')!;
    const work = 'https://doi.org/10.5555/sur%EF%BF%BDrogate';
    expect(objectsOf(q, `${BIBO}doi`, work)).toEqual(['10.5555/sur\uFFFDrogate']);
    // The space left where U+FFFE and U+FFFF were removed is collapsed (one-line text).
    expect(objectsOf(q, `${S}name`, work)).toEqual([
      'lone high \uFFFD lone low \uFFFD reversed \uFFFD\uFFFD pair 😀 FFFE FFFF end',
    ]);
    expect(objectsOf(q, `${S}abstract`, work)[0]).toContain('\uFDD0 \u{10FFFF} and private use \uE000');
    expect(objectsOf(q, `${S}contentUrl`)).toEqual(['https://example.org/%EF%BF%BD/.pdf']);
  });

  it('bidi marks stay in text but never in an IRI', () => {
    const q = ntriples.get('bidi-marks.json')!;
    const work = 'https://doi.org/10.5555/bidi%E2%80%AEevil%E2%80%AC';
    expect(objectsOf(q, `${BIBO}doi`, work)).toEqual(['10.5555/bidi\u202Eevil\u202C']);
    expect(objectsOf(q, `${S}name`, work)[0]).toContain('with \u200FRLM and \u202ERLO');
    for (const quad of q) {
      for (const term of [quad.subject, quad.object])
        if (term.termType === 'NamedNode')
          expect(term.value).not.toMatch(/[\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/);
    }
    expect(objectsOf(q, `${S}url`, work)).toEqual(['https://example.org/%E2%80%AEpath%E2%80%AC?q=%E2%80%8E1']);
    // An ORCID wrapped in bidi marks is not an iD: kept as an identifier, not linked (the person is no orcid.org IRI).
    for (const quad of q) {
      for (const term of [quad.subject, quad.object])
        if (term.termType === 'NamedNode') expect(term.value).not.toContain('orcid.org');
    }
    expect(objectsOf(q, `${S}identifier`)).toContain('\u200E0000-0002-1825-0097\u200F');
  });

  it('characters an IRI cannot hold are percent-encoded in DOIs and URLs; the DOI literal keeps them; non-URLs stay text', () => {
    const q = ntriples.get('iri-breakers.json')!;
    const work = 'https://doi.org/10.5555/a%20b%22c%3Cd%3E%7Be%7D%7Cf%5Eg%60h%5Ci%25j%23k%3Fl%5Bm%5Dn';
    expect(objectsOf(q, `${BIBO}doi`, work)).toEqual(['10.5555/a b"c<d>{e}|f^g`h\\i%j#k?l[m]n']);
    expect(objectsOf(q, `${S}url`, work).sort()).toEqual([
      '<http://example.org/in-angle-brackets>',
      'http://EXAMPLE.org/b',
      'http://user:secret@example.org/',
      'https://example.org/a%20b%22c%3Cd%3E%7Be%7D%7Cf%5Eg%60h%5Ci',
      'javascript:alert(1)',
    ]);
    expect(objectsOf(q, `${S}contentUrl`)).toEqual(['http://example.org/x%20y.pdf?a=%5B1%5D&b=%7B2%7D#frag%23more']);
    expect(objectsOf(q, `${S}sameAs`, work)).toEqual(['https://doi.org/10.5555/a%20b%22c%3Cd%3E']);
    // Only the valid iD (sent with the resolver prefix) makes the person an orcid.org IRI.
    const orcids = objectsOf(q, `${S}author`, work).filter((v) => v.includes('orcid.org'));
    expect(orcids).toEqual(['https://orcid.org/0000-0002-1825-0097']);
    expect(objectsOf(q, `${S}identifier`)).toEqual(
      expect.arrayContaining(['0000 0002 1825 0097', '<0000-0002-1825-0097>']),
    );
    expect(
      q.some(
        (x) => x.subject.value === 'https://doi.org/10.5555/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O',
      ),
    ).toBe(true);
    expect(q.some((x) => x.subject.value === 'https://doi.org/10.5555/%2E/%2E%2E')).toBe(true);
    expect(q.some((x) => x.subject.value.endsWith('/discipline/a%20b%2F%3Cc%3E'))).toBe(true);
  });

  it(']]> and -- reach RDF/XML and come back unchanged', async () => {
    const { parseRdfXml } = await import('../helpers/rdf.js');
    const q = await parseRdfXml(readFileSync(join(dir, 'xml-breakers.json.rdf'), 'utf8'));
    expect(objectsOf(q, `${S}name`, 'https://doi.org/10.5555/xml')).toEqual([
      'CDATA end ]]> and comment -- and <!-- comment --> and &amp; & < > " \'',
    ]);
    expect(objectsOf(q, `${S}keywords`).sort()).toEqual(['--', '<!--', ']]>']);
  });

  it('raw line breaks inside strings of a saved response are repaired, not lost: one-line text joined by spaces, the abstract keeps its paragraphs', () => {
    const q = ntriples.get('crlf-in-strings.json')!;
    expect(objectsOf(q, `${S}name`, 'https://doi.org/10.5555/crlf1')).toEqual(['two lines']);
    expect(objectsOf(q, `${S}abstract`, 'https://doi.org/10.5555/crlf1')).toEqual([
      'first paragraph.\n\nsecond paragraph with a raw tab.',
    ]);
    expect(stderrOf.get('crlf-in-strings.json')).toMatch(/notes [1-9]/);
    expect(objectsOf(ntriples.get('ndjson-raw-newline.jsonl')!, `${S}name`, 'https://doi.org/10.5555/n2')).toEqual([
      'broken over lines',
    ]);
    // 5,000 lines of one paragraph: joined into one line, every line kept, in order.
    const long = objectsOf(
      ntriples.get('ndjson-long-broken-record.jsonl')!,
      `${S}abstract`,
      'https://doi.org/10.5555/long',
    );
    expect(long).toHaveLength(1);
    expect(long[0]!.split(' ')).toHaveLength(BROKEN_LINES);
    expect(long[0]).toBe(brokenRecordLines().join(' '));
  });

  it('invalid UTF-8 bytes become U+FFFD', () => {
    const q = ntriples.get('invalid-utf8.json')!;
    const names = objectsOf(q, `${S}name`);
    expect(names).toContain('M\uFFFDller, J\uFFFDrg');
    expect(q.some((x) => x.subject.value === 'https://doi.org/10.5555/utf8%EF%BF%BD')).toBe(true);
  });

  it('a 10 MB abstract at the default limit (8 MiB): its record rejected naming the limit and the way out, nothing written', async () => {
    const out = join(dir, 'big-abstract.default.nt');
    const r = await runCli(['convert', paths.get('big-abstract.json')!, '-o', out, '-f', 'ntriples']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('records read 1, mapped 0, rejected 1');
    expect(r.stderr).toMatch(
      /rejected: \S*big-abstract\.json record 1 \(line 1\), field \(input\): the line holds more than 8 MiB of JSON, more than is read as a whole \(--max-document-chars raises the limit\)/,
    );
  });

  it('a 10 MB abstract is written whole, its wrapped lines and tabs made spaces', () => {
    const q = ntriples.get('big-abstract.json')!;
    const abstract = objectsOf(q, `${S}abstract`);
    expect(abstract).toHaveLength(1);
    expect(abstract[0]!.length).toBe(BIG_ABSTRACT_CHARS);
    // Each single line break and tab (one paragraph, no blank line) is one space: nothing else changes.
    expect(abstract[0] === bigAbstractText().replace(/[\t\n]/g, ' ')).toBe(true);
  });

  it('10,000 creators are all written, in order, as authors and as a list', () => {
    const q = ntriples.get('many-creators.json')!;
    const work = 'https://doi.org/10.5555/many';
    const authors = objectsOf(q, `${S}author`, work);
    expect(authors).toHaveLength(MANY_CREATORS);
    expect(new Set(authors).size).toBe(MANY_CREATORS);
    expect(objectsOf(q, `${RDF_NS}first`)).toHaveLength(MANY_CREATORS);
    const [head] = objectsOf(q, `${BIBO}authorList`, work);
    const names = new Map(
      q.filter((x) => x.predicate.value === `${S}name`).map((x) => [x.subject.value, x.object.value]),
    );
    const listed = listItems(q, head!);
    expect(new Set(listed)).toEqual(new Set(authors));
    expect(listed.map((p) => names.get(p))).toEqual(
      Array.from({ length: MANY_CREATORS }, (_, i) => manyCreatorName(i)),
    );
  });

  it('a record nested 100,000 levels deep is rejected unread, with the start of its text (it is never built: `maxDepth`); a deep unknown field within the limit is counted', () => {
    for (const name of ['deep-object-in-title.json', 'deep-unknown-field.json']) {
      const [line] = rejectsOf.get(name)!;
      const rejection = JSON.parse(line!) as {
        field: string;
        code: string;
        reason: string;
        record?: unknown;
        excerpt: string;
      };
      expect(rejection).toMatchObject({
        field: '(input)',
        code: 'unreadable',
        reason: expect.stringMatching(/^nested deeper than 64 levels/),
      });
      expect(rejection.record).toBeUndefined();
      expect(rejection.excerpt).toHaveLength(200);
      expect(line!.length).toBeLessThan(1000);
    }
    expect(objectsOf(ntriples.get('deep-unknown-field.json')!, `${BIBO}doi`)).toEqual(['10.5555/after']);
    expect(stderrOf.get('deep-unknown-field-64.json')).toMatch(/unknown fields: extra \(1\)/);
  });
});
