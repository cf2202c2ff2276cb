import type * as RDF from '@rdfjs/types';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DataFactory, Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/formats.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { recordKeyOf } from '../../src/group/groupRecords.js';
import { fixtureQuads, fixtureText } from './shapeCases.js';
import { runCli } from '../helpers/cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'validate-cli-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], stdinText?: string) => runCli(argv, { cwd: dir, stdin: stdinText ?? '' });

/** Writes quads as the toolkit's serialisers do: one group per record, the shared nodes it names (subjects of no record) among its quads. */
function serialize(quads: RDF.Quad[], format: FormatName): string {
  const groups = new Map<string, RDF.Quad[]>();
  let current = '';
  for (const q of quads) {
    const k = (current = recordKeyOf(q.subject) ?? current);
    groups.set(k, [...(groups.get(k) ?? []), q]);
  }
  const w = serializerFor(format).createWriter();
  return w.start() + [...groups.values()].map((g) => w.write(g)).join('') + w.end();
}

describe('scholarly-rdf validate', () => {
  it('reports broken records by shape and path, with examples, and exits 1', async () => {
    writeFileSync(join(dir, 'broken.ttl'), fixtureText('broken-records.ttl'));
    const r = await cli(['validate', 'broken.ttl']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^records: 8, conforming: 1, not conforming: 7\n/);
    expect(r.stdout).toContain('violations: 10, warnings: 0');
    expect(r.stdout).toMatch(/Violation\s+1 in\s+1 record\(s\)\s+srsh:PagesEither-pageStart\s+schema:pageStart/);
    expect(r.stdout).toMatch(/srsh:Work-authorListMembers\s+bibo:authorList\/rdf:rest\*\/rdf:first/);
    expect(r.stdout).toContain('first examples:');
    // The person's IRI is the mistyped iD: the focus node is the value, there is no path.
    expect(r.stdout).toContain(
      '10.5555/bad-orcid: <https://orcid.org/0000-0002-1825-0098> = <https://orcid.org/0000-0002-1825-0098>',
    );
    expect(r.stdout).toMatch(/Violation\s+1 in\s+1 record\(s\)\s+srsh:WorkKindShape/);
    expect(r.stdout).toMatch(/Violation\s+1 in\s+1 record\(s\)\s+srsh:Work-noIssue\s+bibo:issue/);
  });

  it('exits 0 when every record conforms', async () => {
    writeFileSync(join(dir, 'full.ttl'), fixtureText('full-records.ttl'));
    const r = await cli(['validate', 'full.ttl', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('records: 2, conforming: 2, not conforming: 0\n');
  });

  it('counts the nodes of a record whose work is missing (a dump cut mid-record) as a record that does not conform', async () => {
    const quads = fixtureQuads('full-records.ttl');
    const lostWork = quads.filter((q) => q.subject.value !== 'https://doi.org/10.5555/full-1');
    writeFileSync(join(dir, 'cut.nt'), serialize(lostWork, 'ntriples'));
    const r = await cli(['validate', 'cut.nt']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^records: 2, conforming: 1, not conforming: 1/);
    expect(r.stdout).toMatch(/Person-owner/);
  });

  it.each(['turtle', 'ntriples', 'nquads', 'jsonld', 'rdfxml'] as const)('reads %s (and its .gz)', async (format) => {
    const ext = serializerFor(format).extensions[0];
    const text = serialize(fixtureQuads('broken-records.ttl'), format);
    writeFileSync(join(dir, `b.${ext}`), text);
    writeFileSync(join(dir, `b.${ext}.gz`), gzipSync(text));
    for (const file of [`b.${ext}`, `b.${ext}.gz`]) {
      const r = await cli(['validate', file, '--quiet']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('records: 8, conforming: 1, not conforming: 7\n');
      expect(r.code).toBe(1);
    }
  });

  it('reads standard input (-), sniffing the format', async () => {
    const r = await cli(['validate', '-', '--quiet'], serialize(fixtureQuads('broken-records.ttl'), 'ntriples'));
    expect(r.stdout).toBe('records: 8, conforming: 1, not conforming: 7\n');
    expect(r.code).toBe(1);
  });

  it('adds up several files', async () => {
    writeFileSync(join(dir, 'full2.ttl'), fixtureText('full-records.ttl'));
    writeFileSync(join(dir, 'broken2.ttl'), fixtureText('broken-records.ttl'));
    const r = await cli(['validate', 'full2.ttl', 'broken2.ttl', '--quiet']);
    expect(r.stdout).toBe('records: 10, conforming: 3, not conforming: 7\n');
  });

  it('writes the full report in Turtle (--report)', async () => {
    writeFileSync(join(dir, 'broken3.ttl'), fixtureText('broken-records.ttl'));
    const r = await cli(['validate', 'broken3.ttl', '--report', 'report.ttl']);
    expect(r.code).toBe(1);
    const quads = new Parser({ format: 'text/turtle' }).parse(readFileSync(join(dir, 'report.ttl'), 'utf8'));
    const sh = 'http://www.w3.org/ns/shacl#';
    expect(quads.filter((q) => q.predicate.value === `${sh}result`)).toHaveLength(10);
    expect(quads.find((q) => q.predicate.value === `${sh}conforms`)?.object.value).toBe('false');
    const path = quads.find((q) => q.predicate.value === `${sh}resultPath` && q.object.termType === 'BlankNode');
    expect(path).toBeDefined();
    expect(quads.filter((q) => q.predicate.value === `${sh}zeroOrMorePath`)).toHaveLength(1);
    expect(r.stderr).toContain('report: report.ttl (10 result(s))');
  });

  it('uses other shapes (--shapes DIR)', async () => {
    const shapes = join(dir, 'myshapes');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(shapes);
    writeFileSync(
      join(shapes, 'one.ttl'),
      `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix schema: <http://schema.org/> .
       <urn:x:NeedsKeywords> a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ;
         sh:property [ sh:path schema:keywords ; sh:minCount 1 ; sh:message "needs keywords" ] .`,
    );
    writeFileSync(join(dir, 'full4.ttl'), fixtureText('full-records.ttl'));
    const r = await cli(['validate', 'full4.ttl', '--shapes', 'myshapes']);
    expect(r.stdout).toMatch(/^records: 2, conforming: 2/);
    writeFileSync(join(dir, 'broken4.ttl'), fixtureText('broken-records.ttl'));
    const b = await cli(['validate', 'broken4.ttl', '--shapes', 'myshapes', '--report', 'report4.ttl']);
    // Six articles without keywords; a chapter and a creative work, which the shape does not target.
    expect(b.stdout).toMatch(/^records: 8, conforming: 2, not conforming: 6\n/);
    // The blank property shape named as the report names it, so its row is found in the report by its text.
    const row = /Violation\s+6 in\s+6 record\(s\)\s+(_:\S+)\s+schema:keywords/.exec(b.stdout);
    expect(row?.[1]).toMatch(/^_:b\w+$/);
    expect(readFileSync(join(dir, 'report4.ttl'), 'utf8')).toContain(`sh:sourceShape ${row![1]} ;`);
    expect(b.stdout).toContain('needs keywords');
    expect(b.stdout).not.toContain('srsh:');
    expect(b.code).toBe(1);
  });

  it('finds an empty dump conforming (as SHACL and Jena do), saying it held nothing; refuses plain JSON read as JSON-LD', async () => {
    writeFileSync(join(dir, 'empty.nt'), '');
    const empty = await cli(['validate', 'empty.nt', '--json']);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toMatchObject({ conforms: true, failed: false, records: 0 });
    const text = await cli(['validate', 'empty.nt']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'note: the input holds no quads: it conforms (no results, as SHACL says of an empty graph), but nothing was checked',
    );
    writeFileSync(join(dir, 'plain.jsonld'), JSON.stringify({ thing: [{ name: 'T' }] }));
    const plain = await cli(['validate', 'plain.jsonld']);
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/would drop it silently/);
    // The service's own JSON (an envelope, a record, from a file or stdin): convert it first.
    writeFileSync(
      join(dir, 'page.json'),
      JSON.stringify({
        apiMessage: 'This JSON was provided by Springer Nature',
        query: 'x',
        records: [{ doi: '10.1000/x', title: 'T' }],
      }),
    );
    writeFileSync(join(dir, 'record.json'), JSON.stringify({ contentType: 'Article', doi: '10.1000/x', title: 'T' }));
    for (const [args, stdin] of [
      [['page.json'], undefined],
      [['record.json'], undefined],
      [['-', '--input-format', 'jsonld'], JSON.stringify({ apiMessage: 'x', records: [] })],
    ] as const) {
      const raw = await cli(['validate', ...args], stdin);
      expect(raw.code, raw.stderr).toBe(4);
      expect(raw.stderr).toMatch(
        /: this is the service's JSON \(records as the metadata API sends them: "\w+" is one of its keys\), not RDF: convert it first/,
      );
    }
  });

  it('-q: the one line it prints says when quads of no record do not conform', async () => {
    const text =
      fixtureText('full-records.ttl') +
      '\n<https://w3id.org/scholarly-rdf/dump/x> a <http://rdfs.org/ns/void#Dataset> .\n';
    writeFileSync(join(dir, 'other-bad.ttl'), text);
    const r = await cli(['validate', 'other-bad.ttl', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/not conforming: 0; other quads do not conform/);
  });

  it('fails with exit code 4 on a missing file, bad shapes or bad RDF', async () => {
    for (const zero of [
      ['-j', '0'],
      ['--window', '0'],
    ])
      expect((await cli(['validate', 'nope.ttl', ...zero])).code).toBe(2);
    const missing = await cli(['validate', 'nope.ttl']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).not.toContain('validation stopped'); // nothing was validated: only the error
    writeFileSync(join(dir, 'full5.ttl'), fixtureText('full-records.ttl'));
    const noShapes = await cli(['validate', 'full5.ttl', '--shapes', 'no-such-dir']);
    expect(noShapes.code).toBe(4);
    expect(noShapes.stderr).toContain('no-such-dir');
    writeFileSync(
      join(dir, 'badpattern.ttl'),
      `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix schema: <http://schema.org/> .
       <urn:x:S> a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ; sh:property [ sh:path schema:name ; sh:pattern "([a-z" ] .`,
    );
    for (const jobs of ['1', '2']) {
      const badPattern = await cli(['validate', 'full5.ttl', '--shapes', 'badpattern.ttl', '-j', jobs]);
      expect(badPattern.code).toBe(4);
      expect(badPattern.stderr).toContain(
        'the shapes cannot be used: a shape (blank node) with sh:path <http://schema.org/name> in <urn:x:S>: Invalid regular expression',
      );
    }
    writeFileSync(
      join(dir, 'notargets.ttl'),
      '@prefix sh: <http://www.w3.org/ns/shacl#> . <urn:x:S> a sh:NodeShape ; sh:property [ sh:path <http://schema.org/name> ; sh:minCount 1 ] .',
    );
    const noTargets = await cli(['validate', 'full5.ttl', '--shapes', 'notargets.ttl']);
    expect(noTargets.code).toBe(4);
    expect(noTargets.stderr).toContain('target nothing');
    writeFileSync(join(dir, 'bad.ttl'), '<https://doi.org/10.1/x> <http://schema.org/name> "unterminated .');
    const bad = await cli(['validate', 'bad.ttl']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('bad.ttl');
  });

  /** broken-records.ttl as N-Triples lines, as the toolkit writes it, in the order written and sorted; `keep` selects records. */
  function brokenLines(
    name: string,
    keep: (quads: RDF.Quad[]) => boolean = () => true,
  ): { together: string; sorted: string } {
    const records = new Map<string, RDF.Quad[]>();
    let current = '';
    for (const q of new Parser({ format: 'text/turtle' }).parse(fixtureText('broken-records.ttl'))) {
      current = recordKeyOf(q.subject) ?? current;
      records.set(current, [...(records.get(current) ?? []), q]);
    }
    const quads = [...records.values()].filter(keep).flat();
    const lines = serialize(quads, 'ntriples').trim().split('\n');
    writeFileSync(join(dir, `${name}-together.nt`), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, `${name}-sorted.nt`), `${[...lines].sort().join('\n')}\n`);
    writeFileSync(join(dir, `${name}-sorted.ttl`), `${[...lines].sort().join('\n')}\n`);
    return { together: `${name}-together.nt`, sorted: `${name}-sorted.nt` };
  }

  it('validates a dump whose records are not together (sorted by subject) record by record with --regroup, and says to use it without', async () => {
    // The records that name no shared node (journal, publisher, person with an ORCID iD): see the known limit below.
    const files = brokenLines('own', (quads) =>
      quads.every((q) => q.subject.termType !== 'NamedNode' || recordKeyOf(q.subject) !== undefined),
    );
    const together = await cli(['validate', files.together]);
    expect(together.stdout).toMatch(/^records: 4, conforming: 0, not conforming: 4\n/);
    // A window of one record: the lines of no-title's author come after skipped-author's work.
    const pieces = await cli(['validate', files.sorted, '--window', '1']);
    expect(pieces.stdout).toMatch(
      /error: the quads of \d+ record\(s\) were not together in the input .* validate again with --regroup/,
    );
    // Results of records in pieces are wrong: a failure, never a warning with exit code 0.
    expect(pieces.code).toBe(1);
    for (const args of [
      [files.sorted, '--regroup', '--window', '1'],
      [files.sorted, '--regroup', '-j', '2'],
    ]) {
      const r = await cli(['validate', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n').slice(0, 2)).toEqual(together.stdout.split('\n').slice(0, 2));
      expect(r.stdout).not.toContain('not together');
    }
    // Turtle (N-Triples is Turtle): its quads go through the same temporary files, as N-Triples lines.
    const nq = await cli(['validate', 'own-sorted.ttl', '--regroup']);
    expect(nq.stdout.split('\n').slice(0, 2)).toEqual(together.stdout.split('\n').slice(0, 2));
  });

  it("validates a sorted dump of record graphs (--graph-per-record) exactly: shared nodes stay in their record's graph", async () => {
    const records = new Map<string, RDF.Quad[]>();
    let current = '';
    for (const q of new Parser({ format: 'text/turtle' }).parse(fixtureText('broken-records.ttl'))) {
      current = recordKeyOf(q.subject) ?? current;
      records.set(current, [...(records.get(current) ?? []), q]);
    }
    const quads = [...records].flatMap(([key, qs]) =>
      qs.map((q) =>
        DataFactory.quad(
          q.subject,
          q.predicate,
          q.object,
          DataFactory.namedNode(`https://w3id.org/scholarly-rdf/record/${key}`),
        ),
      ),
    );
    const lines = serialize(quads, 'nquads').trim().split('\n');
    writeFileSync(join(dir, 'graphs-together.nq'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'graphs-sorted.nq'), `${[...lines].sort().join('\n')}\n`);
    const together = await cli(['validate', 'graphs-together.nq']);
    expect(together.stdout).toMatch(/^records: 8, conforming: 1, not conforming: 7\nviolations: 10, warnings: 0\n/);
    for (const args of [['--regroup'], ['--regroup', '-j', '2']]) {
      const r = await cli(['validate', 'graphs-sorted.nq', ...args]);
      expect(r.stdout.split('\n').slice(0, 2)).toEqual(together.stdout.split('\n').slice(0, 2));
    }
  });

  // A sorted dump puts the statements of shared nodes (journal, publisher, person with an ORCID iD) far from the
  // records that name them (<https://orcid.org/...> after every <https://doi.org/...>): --regroup keeps them
  // apart, once each, and joins them back to every record whose lines name them (an issue brings its volume and
  // journal).
  it("puts a sorted dump's shared nodes back with every record that names them (--regroup)", async () => {
    const files = brokenLines('shared');
    const together = await cli(['validate', files.together]);
    expect(together.stdout).toMatch(/^records: 8, conforming: 1, not conforming: 7\nviolations: 10, warnings: 0\n/);
    const r = await cli(['validate', files.sorted, '--regroup']);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(together.stdout.split('\n').slice(0, 2));
  });

  it('stops at a syntax error without leaving a report that would call the records after it conforming', async () => {
    const records = fixtureText('broken-records.ttl');
    writeFileSync(
      join(dir, 'stops.nt'),
      serialize(new Parser({ format: 'text/turtle' }).parse(records), 'ntriples') +
        '<https://doi.org/10.1/x> <http://schema.org/name> "unterminated .\n',
    );
    writeFileSync(join(dir, 'stale.ttl'), 'an old report');
    for (const jobs of ['1', '2']) {
      const r = await cli(['validate', 'stops.nt', '--report', 'stale.ttl', '-j', jobs]);
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/stops\.nt:\d+: invalid N-Triples/);
      expect(r.stderr).toContain(
        'validation stopped: 8 record(s) validated before it (7 not conforming); no report written to stale.ttl',
      );
      expect(existsSync(join(dir, 'stale.ttl'))).toBe(false);
    }
  });
});

describe('scholarly-rdf validate with shapes of your own', () => {
  it('runs SPARQL constraints it has no native code for through the SPARQL engine', async () => {
    const shapes = join(dir, 'sparql-shapes.ttl');
    writeFileSync(
      shapes,
      `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix schema: <http://schema.org/> .
       <urn:x:ShortTitle> a sh:NodeShape ; sh:targetSubjectsOf schema:name ;
         sh:sparql [ sh:message "title longer than 20 characters" ;
           sh:select "SELECT $this ?value WHERE { $this <http://schema.org/name> ?value . FILTER (STRLEN(STR(?value)) > 20) }" ] .`,
    );
    writeFileSync(
      join(dir, 'two.nt'),
      '<https://doi.org/10.1/a> <http://schema.org/name> "Short" .\n<https://doi.org/10.1/b> <http://schema.org/name> "A title of more than twenty characters" .\n',
    );
    const r = await cli(['validate', 'two.nt', '--shapes', 'sparql-shapes.ttl']);
    expect(r.stdout).toMatch(/^records: 2, conforming: 1, not conforming: 1\n/);
    expect(r.stdout).toContain('title longer than 20 characters');
    expect(r.code).toBe(1);
  });
});
