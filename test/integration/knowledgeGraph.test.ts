/**
 * The knowledge graph in a real Virtuoso 7 (issue 17, acceptance): the sample
 * catalogue converted and loaded, then "articles per journal", "works per
 * ORCID" and "works per publisher" asked in SPARQL and compared with counts
 * computed here from the JSON records themselves; and `--graph-per-record`
 * N-Quads of 100 records loaded graph by graph, one record's graph replaced
 * (`DROP GRAPH` + `INSERT DATA`) and only that record changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Writer } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slug } from '../../src/mapping/entityIris.js';
import { ROOT, needTools, runCli, withVirtuoso, type VirtuosoServer } from './helpers.js';
import { tempDir } from '../helpers/tempDir.js';

const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const B = 'https://w3id.org/scholarly-rdf/';
const G = `${B}graph/it-knowledge-graph`;
const SCHEMA = 'PREFIX schema: <http://schema.org/>';
const work = tempDir('scholarly-kg-it-');

interface Creator {
  creator?: string;
  ORCID?: string;
}
interface SampleRecord {
  doi: string;
  title?: string;
  publicationType?: string;
  contentType?: string;
  journalId?: string;
  issn?: string;
  eIssn?: string;
  publisher?: string;
  publisherName?: string;
  creators?: Creator[];
}

const lines = readFileSync(CATALOGUE, 'utf8').trim().split('\n');
/** The service spells some keys in either case (`journalId`/`journalid`): read them by their lower-case spelling. */
const KEYS = [
  'doi',
  'title',
  'publicationType',
  'contentType',
  'journalId',
  'issn',
  'eIssn',
  'publisher',
  'publisherName',
  'creators',
] as const;
function readRecord(line: string): SampleRecord {
  const raw = JSON.parse(line) as Record<string, unknown>;
  const lower = new Map(Object.entries(raw).map(([k, val]) => [k.toLowerCase(), val]));
  return Object.fromEntries(
    KEYS.map((k) => [k, lower.get(k.toLowerCase())]).filter(([, val]) => val !== undefined && val !== ''),
  ) as unknown as SampleRecord;
}
const records = lines.map(readRecord);

/** ISO 7064 MOD 11-2 over the first 15 digits (written here, not taken from src/). */
function validOrcid(id: string): boolean {
  if (!/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(id)) return false;
  const d = id.replace(/-/g, '');
  let total = 0;
  for (let i = 0; i < 15; i++) total = (total + Number(d[i])) * 2;
  const r = (12 - (total % 11)) % 11;
  return (r === 10 ? 'X' : String(r)) === d[15];
}

/** ISSN check digit (MOD 11, weights 8..2). */
function validIssn(issn: string | undefined): issn is string {
  if (!issn || !/^\d{4}-\d{3}[\dX]$/.test(issn)) return false;
  const d = issn.replace('-', '');
  let total = 0;
  for (let i = 0; i < 7; i++) total += Number(d[i]) * (8 - i);
  const r = (11 - (total % 11)) % 11;
  return (r === 10 ? 'X' : String(r)) === d[7];
}

/** The journal node a journal record's article should be part of (docs: notes/model.md). */
function expectedJournal(r: SampleRecord): string {
  if (r.journalId) return `${B}journal/${r.journalId}`;
  const issn = [r.issn, r.eIssn].find(validIssn);
  if (issn) return `${B}issn/${issn}`;
  return `${B}doi/${r.doi}#periodical`;
}

function tally(map: Map<string, Set<string>>, key: string, doi: string): void {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(doi);
}

function sizes(map: Map<string, Set<string>>): Record<string, number> {
  return Object.fromEntries(
    [...map].map(([k, s]) => [k, s.size]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

async function select(v: VirtuosoServer, query: string): Promise<Record<string, string>[]> {
  const url = new URL(v.sparql);
  url.searchParams.set('query', query);
  const res = await fetch(url, { headers: { accept: 'application/sparql-results+json' } });
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(200);
  const json = JSON.parse(text) as { results: { bindings: Record<string, { value: string }>[] } };
  return json.results.bindings.map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, t.value])));
}

async function update(v: VirtuosoServer, sparql: string): Promise<void> {
  const res = await fetch(v.sparql, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: new URLSearchParams({ update: sparql }).toString(),
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(200);
}

async function gsp(v: VirtuosoServer, method: 'PUT' | 'DELETE', graph: string, body?: string): Promise<number> {
  const url = new URL(v.gsp);
  url.searchParams.set('graph', graph);
  const res = await fetch(
    url,
    body === undefined ? { method } : { method, headers: { 'content-type': 'application/n-triples' }, body },
  );
  await res.text();
  return res.status;
}

/** Group rows `{k, n}` into a record. */
function rowsToCounts(rows: Record<string, string>[], key: string): Record<string, number> {
  return Object.fromEntries(
    rows.map((r) => [r[key]!, Number(r['n'])]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

function ntriplesOf(quads: readonly RDF.Quad[]): string {
  const w = new Writer({ format: 'N-Triples' });
  return w.quadsToString(
    quads.map((q) => DataFactory.quad(q.subject as never, q.predicate as never, q.object as never)),
  );
}

function byGraph(nq: string): Map<string, RDF.Quad[]> {
  const out = new Map<string, RDF.Quad[]>();
  for (const q of new Parser({ format: 'N-Quads' }).parse(nq)) {
    const g = q.graph.termType === 'DefaultGraph' ? '' : q.graph.value;
    let list = out.get(g);
    if (!list) out.set(g, (list = []));
    list.push(q as unknown as RDF.Quad);
  }
  return out;
}

/** Distinct triples per graph (what a store holds). */
function distinctCount(quads: readonly RDF.Quad[]): number {
  return new Set(
    ntriplesOf(quads)
      .split('\n')
      .filter((l) => l.trim() !== ''),
  ).size;
}

describe.runIf(needTools('virtuoso'))('the knowledge graph in Virtuoso (issue 17)', () => {
  let v: VirtuosoServer;
  const recordGraphs: string[] = [];

  beforeAll(() => {
    v = withVirtuoso();
  });

  afterAll(async () => {
    if (v) {
      await gsp(v, 'DELETE', G);
      for (const g of recordGraphs) await gsp(v, 'DELETE', g);
    }
  });

  describe('counts over the loaded sample dump', () => {
    beforeAll(async () => {
      const nt = join(work, 'sample.nt');
      const converted = await runCli(['convert', CATALOGUE, '-f', 'ntriples', '-o', nt]);
      expect(converted.exitCode, converted.stderr).toBe(0);
      const r = await runCli(
        [
          'load',
          nt,
          '--endpoint',
          v.baseUrl,
          '--store',
          'virtuoso',
          '--graph',
          G,
          '--replace',
          '--state',
          join(work, 'sample.state.json'),
        ],
        { cwd: work },
      );
      expect(r.exitCode, r.stderr).toBe(0);
    });

    it('articles per journal', async () => {
      const expected = new Map<string, Set<string>>();
      for (const r of records) if (r.publicationType === 'Journal') tally(expected, expectedJournal(r), r.doi);
      const rows = await select(
        v,
        `${SCHEMA} SELECT ?journal (COUNT(DISTINCT ?w) AS ?n) WHERE { GRAPH <${G}> {
           ?w a schema:ScholarlyArticle ; schema:isPartOf+ ?journal . ?journal a schema:Periodical } } GROUP BY ?journal`,
      );
      const seen = rowsToCounts(rows, 'journal');
      console.info(
        `articles per journal: ${rows.length} journals, ${Object.values(seen).reduce((a, b) => a + b, 0)} articles`,
      );
      expect(seen).toEqual(sizes(expected));

      const journalIds = new Set(records.map((r) => r.journalId).filter((id): id is string => !!id));
      const [nodes] = await select(
        v,
        `${SCHEMA} SELECT (COUNT(DISTINCT ?j) AS ?n) WHERE { GRAPH <${G}> { ?j a schema:Periodical . FILTER(STRSTARTS(STR(?j), "${B}journal/")) } }`,
      );
      expect(Number(nodes!['n'])).toBe(journalIds.size);
      const [all] = await select(
        v,
        `${SCHEMA} SELECT (COUNT(DISTINCT ?j) AS ?n) WHERE { GRAPH <${G}> { ?j a schema:Periodical } }`,
      );
      expect(Number(all!['n'])).toBe(expected.size);
    });

    it('works per ORCID', async () => {
      const expected = new Map<string, Set<string>>();
      for (const r of records)
        for (const c of r.creators ?? [])
          if (c.ORCID && validOrcid(c.ORCID)) tally(expected, `https://orcid.org/${c.ORCID}`, r.doi);
      const rows = await select(
        v,
        `${SCHEMA} SELECT ?p (COUNT(DISTINCT ?w) AS ?n) WHERE { GRAPH <${G}> {
           ?w schema:author ?p . FILTER(STRSTARTS(STR(?p), "https://orcid.org/")) } } GROUP BY ?p`,
      );
      const seen = rowsToCounts(rows, 'p');
      console.info(`works per ORCID: ${rows.length} ORCIDs, max ${Math.max(...Object.values(seen))} works`);
      expect(seen).toEqual(sizes(expected));
    });

    it('works per publisher (and per imprint)', async () => {
      const publishers = new Map<string, Set<string>>();
      const imprints = new Map<string, Set<string>>();
      for (const r of records) {
        const p = slug(r.publisher ?? '');
        const n = slug(r.publisherName ?? '');
        if (p) tally(publishers, `${B}publisher/${p}`, r.doi);
        else if (n) tally(publishers, `${B}publisher/${n}`, r.doi);
        if (p && n && p !== n) tally(imprints, `${B}publisher/${n}`, r.doi);
      }
      const q = (prop: string) =>
        select(
          v,
          `${SCHEMA} SELECT ?org (COUNT(DISTINCT ?w) AS ?n) WHERE { GRAPH <${G}> { ?w schema:${prop} ?org . ?org a schema:Organization } } GROUP BY ?org`,
        );
      const seen = rowsToCounts(await q('publisher'), 'org');
      const seenImprints = rowsToCounts(await q('publisherImprint'), 'org');
      console.info(`works per publisher: ${JSON.stringify(seen)}; per imprint: ${JSON.stringify(seenImprints)}`);
      expect(seen).toEqual(sizes(publishers));
      expect(seenImprints).toEqual(sizes(imprints));
    });
  });

  describe('--graph-per-record: one graph per record, replaced alone', () => {
    const first = records.slice(0, 100);
    let graphs: Map<string, RDF.Quad[]>;

    /** Triples per record graph in Virtuoso, for the graphs of this test. */
    async function storeCounts(): Promise<Record<string, number>> {
      const rows = await select(
        v,
        `SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${B}record/")) } GROUP BY ?g`,
      );
      const ours = new Set(recordGraphs);
      return rowsToCounts(
        rows.filter((r) => ours.has(r['g']!)),
        'g',
      );
    }

    it('has 100 record graphs and nothing else', async () => {
      const input = join(work, 'first100.jsonl');
      writeFileSync(input, `${lines.slice(0, 100).join('\n')}\n`);
      const nq = join(work, 'first100.nq');
      const r = await runCli(['convert', input, '--graph-per-record', '-f', 'nquads', '-o', nq]);
      expect(r.exitCode, r.stderr).toBe(0);
      graphs = byGraph(readFileSync(nq, 'utf8'));
      expect(graphs.has(''), 'no triple in the default graph').toBe(false);
      expect(graphs.size).toBe(100);
      for (const g of graphs.keys()) recordGraphs.push(g);
      // Each graph holds its own record's work, and only it.
      const doiOf = [...graphs.values()].map((qs) =>
        qs.filter((q) => q.predicate.value === 'http://purl.org/ontology/bibo/doi').map((q) => q.object.value),
      );
      for (const d of doiOf) expect(d).toHaveLength(1);
      expect(doiOf.map((d) => d[0]).sort()).toEqual(first.map((rec) => rec.doi).sort());
    });

    it('loads the graphs and replaces one record only', async () => {
      expect(graphs).toBeDefined();
      for (const [g, quads] of graphs) expect(await gsp(v, 'PUT', g, ntriplesOf(quads)), g).toBeLessThan(300);
      const before = await storeCounts();
      expect(Object.keys(before)).toHaveLength(100);
      for (const [g, quads] of graphs) expect(before[g], g).toBe(distinctCount(quads));

      // A journal record among the 100 whose journal other records of the 100 share, with an ORCID author.
      const sharing = (r: SampleRecord) => first.filter((o) => o.journalId && o.journalId === r.journalId).length;
      const target = first.find(
        (r) =>
          r.journalId && sharing(r) > 1 && (r.creators ?? []).some((c) => c.ORCID && validOrcid(c.ORCID)) && r.title,
      )!;
      expect(target).toBeDefined();
      const raw = JSON.parse(lines[records.indexOf(target)]!) as Record<string, unknown>;
      const changed = {
        ...raw,
        title: `${target.title} (revised)`,
        creators: [{ creator: 'Inserted, Ada' }, ...(target.creators ?? [])],
      };
      const changedIn = join(work, 'changed.jsonl');
      writeFileSync(changedIn, `${JSON.stringify(changed)}\n`);
      const changedNq = join(work, 'changed.nq');
      const r = await runCli(['convert', changedIn, '--graph-per-record', '-f', 'nquads', '-o', changedNq]);
      expect(r.exitCode, r.stderr).toBe(0);
      const changedGraphs = byGraph(readFileSync(changedNq, 'utf8'));
      expect(changedGraphs.size).toBe(1);
      const [[g, newQuads]] = [...changedGraphs] as [[string, RDF.Quad[]]];
      expect(graphs.has(g), 'the changed record keeps its graph').toBe(true);

      await update(v, `DROP SILENT GRAPH <${g}>`);
      await update(v, `INSERT DATA { GRAPH <${g}> {\n${ntriplesOf(newQuads)}\n} }`);

      const after = await storeCounts();
      expect(Object.keys(after)).toHaveLength(100);
      expect(after[g]).toBe(distinctCount(newQuads));
      const others = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== g));
      expect(others(after)).toEqual(others(before));

      const workIri = newQuads.find(
        (q) => q.predicate.value === 'http://schema.org/name' && q.subject.value.startsWith('https://doi.org/'),
      )!.subject.value;
      const titles = await select(v, `${SCHEMA} SELECT ?t WHERE { GRAPH <${g}> { <${workIri}> schema:name ?t } }`);
      expect(titles.map((t) => t['t'])).toEqual([changed.title]);
      const anyOld = await select(
        v,
        `${SCHEMA} SELECT ?g WHERE { GRAPH ?g { <${workIri}> schema:name ?t . FILTER(STR(?t) = ${JSON.stringify(target.title)}) } FILTER(STRSTARTS(STR(?g), "${B}record/")) }`,
      );
      expect(anyOld).toEqual([]);
      const authors = await select(
        v,
        `${SCHEMA} SELECT ?n WHERE { GRAPH <${g}> { <${workIri}> schema:author ?p . ?p schema:name ?n } }`,
      );
      expect(authors).toHaveLength((target.creators ?? []).length + 1);
      expect(authors.map((a) => a['n']).some((n) => /Inserted/.test(n!))).toBe(true);

      // The shared journal node: still described in every record graph that names it.
      const journal = `${B}journal/${target.journalId}`;
      const holders = await select(
        v,
        `${SCHEMA} SELECT DISTINCT ?g WHERE { GRAPH ?g { <${journal}> a schema:Periodical ; schema:name ?name } FILTER(STRSTARTS(STR(?g), "${B}record/")) }`,
      );
      const ours = new Set(recordGraphs);
      const holding = holders.map((h) => h['g']!).filter((h) => ours.has(h));
      console.info(
        `replaced ${g} (${before[g]} -> ${after[g]} triples); journal ${journal} described in ${holding.length} record graphs`,
      );
      expect(holding).toHaveLength(sharing(target));
      expect(holding).toContain(g);
    });
  });
});
