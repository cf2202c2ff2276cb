import type * as RDF from '@rdfjs/types';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { unwrap } from '../../src/record/unwrap.js';
import { DataFactory } from 'n3';
import { recordGraphIri } from '../../src/mapping/recordGraph.js';
import { makeRecords } from '../client/fakeService.js';
import { runCli } from '../helpers/cli.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';
import { tempDir } from '../helpers/tempDir.js';

const FIXTURES = [
  'metadata-json-article-metabolomics-2017.json',
  'metadata-json-2023-record-only-computational-visual-media.json',
  'meta-v1-2015-articles-last-page-s701-2records.json',
  'meta-v1-2015-empty-page-beyond-total-s801.json',
];

const parsers: Record<string, (text: string) => RDF.Quad[] | Promise<RDF.Quad[]>> = {
  ttl: parseTurtle,
  nt: parseNTriples,
  nq: parseNQuads,
  jsonld: parseJsonLd,
  rdf: parseRdfXml,
};

function expected(file: string): RDF.Quad[] {
  const parsed = JSON.parse(readFileSync(`test/fixtures/service/${file}`, 'utf8'));
  return [...unwrap(parsed)].flatMap((i) => (i.kind === 'record' ? mapRecord(normalizeRecord(i.raw)).quads : []));
}

const dir = tempDir('convert-');

describe('convert', () => {
  for (const file of FIXTURES) {
    it(`writes ${file} in all five formats, each parsing back (by another parser) to the mapper's graph`, async () => {
      const want = expected(file);
      for (const [ext, parse] of Object.entries(parsers)) {
        const out = join(dir, `${file}.${ext}`);
        const r = await runCli(['convert', `test/fixtures/service/${file}`, '-o', out]);
        expect(r.code, r.stderr).toBe(0);
        expectIsomorphic(await parse(readFileSync(out, 'utf8')), want, `${file} as .${ext}`);
      }
    });
  }

  it('chooses pageStart/pageEnd for split pages and pagination for a range, in every format', async () => {
    const input = join(dir, 'pages.ndjson');
    writeFileSync(
      input,
      `${JSON.stringify({ doi: '10.1/split', startingPage: '3', endingPage: '9', volume: '1' })}\n${JSON.stringify({ doi: '10.1/range', startingPage: '1-6, 9', volume: '1' })}\n`,
    );
    for (const [ext, parse] of Object.entries(parsers)) {
      const out = join(dir, `pages.${ext}`);
      expect((await runCli(['convert', input, '-o', out])).code).toBe(0);
      const quads = await parse(readFileSync(out, 'utf8'));
      const has = (s: string, p: string) =>
        quads.some(
          (q) => q.subject.value === `https://doi.org/10.1/${s}` && q.predicate.value === `http://schema.org/${p}`,
        );
      expect([has('split', 'pageStart'), has('split', 'pageEnd'), has('split', 'pagination')]).toEqual([
        true,
        true,
        false,
      ]);
      expect([has('range', 'pageStart'), has('range', 'pageEnd'), has('range', 'pagination')]).toEqual([
        false,
        false,
        true,
      ]);
    }
  });

  it('reads stdin and gzip, writes gzip, and takes the format from -f', async () => {
    const gz = join(dir, 'in.json.gz');
    writeFileSync(gz, gzipSync(readFileSync('test/fixtures/service/metadata-json-article-metabolomics-2017.json')));
    const out = join(dir, 'out.nt.gz');
    expect((await runCli(['convert', gz, '-o', out])).code).toBe(0);
    expectIsomorphic(
      parseNTriples(gunzipSync(readFileSync(out)).toString('utf8')),
      expected('metadata-json-article-metabolomics-2017.json'),
    );
    const r = await runCli(['convert', '-', '-f', 'ntriples'], {
      stdin: readFileSync('test/fixtures/service/metadata-json-article-metabolomics-2017.json'),
    });
    expect(r.code).toBe(0);
    expectIsomorphic(parseNTriples(r.stdout), expected('metadata-json-article-metabolomics-2017.json'));
    expect(r.stderr).toMatch(/records read 1, mapped 1, rejected 0, statements \d+/);
  });

  it('puts every record either in the output or in the rejects file, and exits 1 when any was rejected', async () => {
    const input = join(dir, 'mixed.ndjson');
    writeFileSync(
      input,
      [
        '{"doi":"10.1/ok"}',
        '{"title":"no doi"}',
        '{"doi":"10.1/bad","creators":[7]}',
        '{broken',
        '{"doi":"10.1/ok2","extra":1}',
      ].join('\n'),
    );
    const out = join(dir, 'mixed.nt');
    const rejects = join(dir, 'mixed.rejects.jsonl');
    const r = await runCli(['convert', input, '-o', out, '--rejects', rejects]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/records read 5, mapped 2, rejected 3/);
    expect(r.stderr).toMatch(/unknown fields: extra \(1\)/);
    expect(r.stderr).toMatch(/record 3 \(line 3\) 10\.1\/bad, field creators\[0\]: expected a creator object/);
    const lines = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.field)).toEqual(['doi', 'creators[0]', '(input)']);
    expect(lines[1].record).toEqual({ doi: '10.1/bad', creators: [7] });
    const subjects = new Set(parseNTriples(readFileSync(out, 'utf8')).map((q) => q.subject.value));
    expect(subjects.has('https://doi.org/10.1/ok') && subjects.has('https://doi.org/10.1/ok2')).toBe(true);
  });

  it('lists the notes of written records with --notes (record, field, what was done)', async () => {
    const input = join(dir, 'notes.ndjson');
    writeFileSync(
      input,
      '{"doi":"10.1/n1","title":"T","publicationName":"J","publicationDate":"2015-02-30"}\n{"doi":"10.1/n2","title":"U","publicationName":"J"}\n',
    );
    const notes = join(dir, 'notes.jsonl');
    const r = await runCli(['convert', input, '-o', join(dir, 'notes.nt'), '--notes', notes]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`notes: in ${notes}`);
    const lines = readFileSync(notes, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        source: input,
        index: 1,
        line: 1,
        recordId: '10.1/n1',
        notes: ['publicationDate: "2015-02-30" is not a valid date; written as plain text'],
      },
    ]);
    const without = await runCli(['convert', input, '-o', join(dir, 'notes2.nt')]);
    expect(without.stderr).toContain('--notes FILE lists them');
  });

  it('rejects a record whose DOI (in any case) came before it, across inputs, rather than merging the two', async () => {
    const a = join(dir, 'dup-a.ndjson');
    const b = join(dir, 'dup-b.ndjson');
    writeFileSync(a, '{"doi":"10.1/dup","title":"First"}\n{"doi":"10.1/other","title":"Other"}\n');
    writeFileSync(b, '{"doi":"10.1/DUP","title":"Second"}\n');
    const out = join(dir, 'dup.nt');
    const rejects = join(dir, 'dup.rejects.jsonl');
    const r = await runCli(['convert', a, b, '-o', out, '--rejects', rejects]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/records read 3, mapped 2, rejected 1/);
    const [line] = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(line).toMatchObject({
      source: b,
      index: 1,
      recordId: '10.1/DUP',
      field: 'doi',
      record: { title: 'Second' },
    });
    expect(line.reason).toMatch(/same DOI/);
    const titles = parseNTriples(readFileSync(out, 'utf8')).filter(
      (q) => q.predicate.value === 'http://schema.org/name' && q.subject.value.startsWith('https://doi.org/'),
    );
    expect(titles.map((q) => q.object.value).sort()).toEqual(['First', 'Other']);
  });

  it('--strict stops at the first rejection; a missing file and a bad format are clear errors', async () => {
    const input = join(dir, 'strict.ndjson');
    writeFileSync(input, '{"title":"no doi"}\n{"doi":"10.1/ok"}\n');
    const strict = await runCli(['convert', input, '--strict', '-o', join(dir, 'strict.nt')]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/--strict: .*record 1.*field doi/);
    const missing = await runCli(['convert', join(dir, 'nope.json')]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/cannot open .*nope\.json: no such file/);
    expect((await runCli(['convert', input, '-f', 'pdf'])).code).toBe(2);
    expect(existsSync(join(dir, 'nope.json'))).toBe(false);
  });
});

describe('convert --graph-per-record', () => {
  const records: Record<string, unknown>[] = [
    ...makeRecords(5),
    {
      ...makeRecords(1)[0]!,
      doi: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
      identifier: 'doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
    },
  ];
  const input = () => {
    const path = join(dir, 'gpr.ndjson');
    writeFileSync(path, `${[...records, { title: 'no DOI' }].map((r) => JSON.stringify(r)).join('\n')}\n`);
    return path;
  };
  /** Each record's quads, as the mapper makes them, in its record graph. */
  const want = (base?: string): Map<string, RDF.Quad[]> =>
    new Map(
      records.map((r) => {
        const m = mapRecord(normalizeRecord(r), base ? { base } : {});
        const g = DataFactory.namedNode(recordGraphIri(m.doi, base));
        return [g.value, m.quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g))];
      }),
    );
  const byGraph = (quads: readonly RDF.Quad[]) => {
    const graphs = new Map<string, RDF.Quad[]>();
    for (const q of quads) graphs.set(q.graph.value, [...(graphs.get(q.graph.value) ?? []), q]);
    return graphs;
  };

  it("writes N-Quads of N records as N record graphs, each holding its own record's quads only; the rejected record is in none", async () => {
    const out = join(dir, 'gpr.nq');
    const r = await runCli(['convert', input(), '-o', out, '--graph-per-record']);
    expect(r.code, r.stderr).toBe(1); // the record without a DOI
    expect(readFileSync(join(dir, 'gpr.nq.rejects.jsonl'), 'utf8')).toContain('no DOI');
    const graphs = byGraph(parseNQuads(readFileSync(out, 'utf8')));
    const expected = want();
    expect([...graphs.keys()].sort()).toEqual([...expected.keys()].sort());
    expect(
      graphs.has(
        'https://w3id.org/scholarly-rdf/record/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0',
      ),
    ).toBe(true);
    for (const [g, quads] of expected) expectIsomorphic(graphs.get(g)!, quads, g);
  });

  it('writes JSON-LD that is the same dataset as the N-Quads, under the --base', async () => {
    const base = 'https://example.org/kg/';
    const nq = join(dir, 'gprb.nq');
    const jl = join(dir, 'gprb.jsonld');
    expect((await runCli(['convert', input(), '-o', nq, '--graph-per-record', '--base', base])).code).toBe(1);
    expect((await runCli(['convert', input(), '-o', jl, '--graph-per-record', '--base', base])).code).toBe(1);
    const fromNQuads = parseNQuads(readFileSync(nq, 'utf8'));
    expect([...byGraph(fromNQuads).keys()].sort()).toEqual([...want(base).keys()].sort());
    expectIsomorphic(await parseJsonLd(readFileSync(jl, 'utf8')), fromNQuads, 'JSON-LD vs N-Quads');
    expectIsomorphic(fromNQuads, [...want(base).values()].flat(), 'N-Quads vs the mapper');
  });

  it('is a usage error for a format without named graphs (naming it) and together with --graph', async () => {
    const path = input();
    for (const [args, label] of [
      [['-f', 'turtle'], 'Turtle'],
      [['-o', join(dir, 'x.nt')], 'N-Triples'],
      [['-f', 'rdfxml'], 'RDF/XML'],
    ] as const) {
      const r = await runCli(['convert', path, ...args, '--graph-per-record']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--graph-per-record needs N-Quads, JSON-LD or TriG output`);
      expect(r.stderr).toContain(`not ${label},`);
    }
    const both = await runCli([
      'convert',
      path,
      '-f',
      'nquads',
      '--graph-per-record',
      '--graph',
      'https://example.org/g',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      '--graph (one graph for all records) and --graph-per-record (a graph for each) do not go together',
    );
    expect(existsSync(join(dir, 'x.nt'))).toBe(false);
  });

  it('says what it does in --help', async () => {
    const r = await runCli(['convert', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      '--graph-per-record N-Quads, JSON-LD or TriG: put each record in its own named graph <base>record/<doi>',
    );
  });
});
