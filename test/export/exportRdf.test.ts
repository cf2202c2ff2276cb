import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { exportRdf, type ExportOptions } from '../../src/export/exportRdf.js';
import { readExportState } from '../../src/export/ExportState.js';
import { ToolkitError } from '../../src/errors.js';
import { makeRecords, randomFaults, startFakeService, type FakeService } from '../client/fakeService.js';
import type { FormatName } from '../../src/formats.js';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { NS } from '../../src/rdf/namespaces.js';
import { recordGraphIri } from '../../src/mapping/recordGraph.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseTurtle } from '../helpers/rdf.js';
import { interrupted } from './exportHarness.js';

const KEY = 'K3y-Of-Test/+=';
let service: FakeService | undefined;
let dir: string;
const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-test-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function base(extra: Partial<ExportOptions> = {}): ExportOptions {
  return {
    query: 'type:Journal',
    baseUrl: service!.url,
    apiKey: KEY,
    pageSize: 10,
    concurrency: 2,
    now: fixedNow,
    retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  };
}

const EXT: Record<FormatName, string> = {
  turtle: 'ttl',
  ntriples: 'nt',
  nquads: 'nq',
  jsonld: 'jsonld',
  rdfxml: 'rdf',
};

describe('exportRdf', () => {
  it('writes each record once, in query order, with a final summary', async () => {
    service = await startFakeService({ records: makeRecords(45), apiKey: KEY });
    const out = join(dir, 'out.nt');
    const summary = await exportRdf(base({ output: out }));
    const text = readFileSync(out, 'utf8');
    const works = [
      ...text.matchAll(/^<https:\/\/doi\.org\/(10\.1000\/test\.\d+)> <http:\/\/purl\.org\/ontology\/bibo\/doi>/gm),
    ].map((m) => m[1]);
    expect(works).toEqual(makeRecords(45).map((r) => r.doi));
    expect(summary.counts).toMatchObject({ records: 45, pages: 5, rejects: 0, duplicates: 0 });
    expect(summary.counts.triples).toBe(text.trim().split('\n').length);
    const state = await readExportState(`${out}.state.json`);
    expect(state?.complete).toBe(true);
    expect(existsSync(`${out}.state.json.seen`)).toBe(false);
  });

  for (const format of ['turtle', 'jsonld', 'rdfxml', 'nquads'] as FormatName[]) {
    it(`resumes a ${format} export after an interruption to the same bytes as an uninterrupted one`, async () => {
      service = await startFakeService({ records: makeRecords(53), apiKey: KEY });
      const full = join(dir, `full.${EXT[format]}`);
      await exportRdf(base({ output: full }));
      const part = join(dir, `part.${EXT[format]}`);
      await interrupted(base({ output: part }), 2);
      const state = await readExportState(`${part}.state.json`);
      expect(state?.complete).toBe(false);
      expect(state?.counts.records).toBe(20);
      // a killed process may have written part of a page after the checkpoint
      appendFileSync(part, 'half a page of garbage');
      const summary = await exportRdf(base({ output: part, resume: true }));
      expect(summary.resumed).toBe(true);
      expect(summary.counts.records).toBe(53);
      expect(readFileSync(part)).toEqual(readFileSync(full));
    });
  }

  it('refuses to start an unfinished export again without resume, touching nothing; restart starts it again and says so', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const out = join(dir, 'again.nt');
    await interrupted(base({ output: out }), 2);
    // The unfinished dump is under a temporary name: the final name does not exist until the export has finished.
    expect(existsSync(out)).toBe(false);
    const files = [`${out}.partial`, `${out}.state.json`, `${out}.state.json.seen`];
    const before = files.map((f) => readFileSync(f));
    const requests = service.requests.length;
    await expect(exportRdf(base({ output: out }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringMatching(
        /again\.nt\.state\.json holds an unfinished export \(20 records of 35\); nothing was changed: run it with `resume` to continue it, or with `restart` to start it again from the beginning \(its progress is lost\)$/,
      ),
      details: { records: 20, sameExport: true, statePath: `${out}.state.json` },
    });
    // Another export over the same output: refused too, the difference named.
    await expect(exportRdf(base({ output: out, query: 'other' }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining(
        'it is another export (query (saved "type:Journal", now "other")): `restart` replaces it with this one',
      ),
      details: { sameExport: false },
    });
    expect(files.map((f) => readFileSync(f))).toEqual(before);
    expect(service.requests.length).toBe(requests);
    expect(readdirSync(dir).sort()).toEqual(['again.nt.partial', 'again.nt.state.json', 'again.nt.state.json.seen']); // no lock left either
    const warnings: string[] = [];
    const summary = await exportRdf(base({ output: out, restart: true, onWarning: (w) => warnings.push(w) }));
    expect(summary).toMatchObject({ resumed: false, counts: { records: 35 } });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^an unfinished export \(20 records of 35\) in .*again\.nt\.state\.json is started again from the beginning \(`restart`\)$/,
      ),
    ]);
    const quiet: string[] = [];
    await exportRdf(base({ output: out, onWarning: (w) => quiet.push(w) }));
    expect(quiet).toEqual([]); // the state of a finished export says nothing, and refuses nothing
  });

  it('takes restart only with an output, and not with resume', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    const out = join(dir, 'r.nt');
    await expect(exportRdf(base({ output: out, restart: true, resume: true }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(
        '`resume` (continue the saved export) and `restart` (start it again) do not go together',
      ),
    });
    await expect(exportRdf(base({ stream: new PassThrough(), restart: true }))).rejects.toMatchObject({
      code: 'usage',
      message: '`restart` needs the output file of the export (`output`)',
    });
    expect(existsSync(out)).toBe(false);
  });

  it('advises restart, not a bare rerun, when a resume finds the output changed', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const out = join(dir, 'changed.nt');
    await interrupted(base({ output: out }), 1);
    writeFileSync(`${out}.partial`, readFileSync(`${out}.partial`).subarray(0, 10));
    await expect(exportRdf(base({ output: out, resume: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('start afresh with `restart` instead of `resume`'),
    });
  });

  it('makes .gz output resumable (one gzip member per page)', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const full = join(dir, 'full.nt.gz');
    await exportRdf(base({ output: full }));
    const part = join(dir, 'part.nt.gz');
    await interrupted(base({ output: part }), 2);
    appendFileSync(`${part}.partial`, Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2]));
    await exportRdf(base({ output: part, resume: true }));
    expect(gunzipSync(readFileSync(part)).toString()).toBe(gunzipSync(readFileSync(full)).toString());
    expect(gunzipSync(readFileSync(full)).toString().trim().split('\n').length).toBeGreaterThan(35 * 5);
  });

  it('refuses to resume when the output was changed, or the options differ', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const out = join(dir, 'out.ttl');
    await interrupted(base({ output: out }), 1);
    const bytes = readFileSync(`${out}.partial`);
    bytes[5] = bytes[5]! ^ 1;
    writeFileSync(`${out}.partial`, bytes);
    await expect(exportRdf(base({ output: out, resume: true }))).rejects.toMatchObject({ code: 'state-mismatch' });
    await expect(exportRdf(base({ output: out, resume: true, query: 'other' }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('query'),
    });
  });

  it('resuming a finished export does nothing', async () => {
    service = await startFakeService({ records: makeRecords(12), apiKey: KEY });
    const out = join(dir, 'out.ttl');
    await exportRdf(base({ output: out }));
    const before = service.requests.length;
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.alreadyComplete).toBe(true);
    expect(service.requests.length).toBe(before);
  });

  it('de-duplicates by DOI across pages and writes rejects', async () => {
    const records = makeRecords(20);
    const withDupes = [
      ...records.slice(0, 10),
      records[2]!,
      { ...records[0]!, doi: 'not-a-doi', identifier: 'x', title: 'bad' },
      ...records.slice(10),
    ];
    service = await startFakeService({ records: withDupes as never, apiKey: KEY });
    const out = join(dir, 'out.nt');
    const rejectsPath = join(dir, 'rejects.jsonl');
    const warnings: string[] = [];
    const summary = await exportRdf(base({ output: out, rejectsPath, onWarning: (w) => warnings.push(w) }));
    expect(summary.counts).toMatchObject({ records: 20, duplicates: 1, rejects: 1 });
    const rejects = readFileSync(rejectsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reason: string; record: { doi: string } });
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.record.doi).toBe('not-a-doi');
    expect(warnings.some((w) => w.includes('rejected'))).toBe(true);
  });

  it('counts the conflicts of its records as convert does: a DOI harvested again with other content, an ORCID iD on two names', async () => {
    const records = makeRecords(20);
    const ORCID = '0000-0002-1825-0097';
    records[3] = { ...records[3]!, creators: [{ creator: 'Müller, Anna', ORCID }] } as never;
    records[14] = { ...records[14]!, creators: [{ creator: 'Gamma, Gil', ORCID }] } as never;
    const withDupes = [
      ...records.slice(0, 10),
      records[2]!, // the same record again: a duplicate, no conflict
      { ...records[5]!, title: 'A corrected title' }, // the DOI of record 6 with another content
      ...records.slice(10),
    ];
    service = await startFakeService({ records: withDupes as never, apiKey: KEY });
    const summary = await exportRdf(base({ output: join(dir, 'out.nt') }));
    expect(summary.counts).toMatchObject({ records: 20, duplicates: 2 });
    expect(summary.conflicts).toBe(2);
    // In the order of the harvest: the copy is the page's second record, record 14 its eighth.
    const endpoint = `${service.url}/meta/v2/json`;
    expect(summary.conflictNotes).toEqual([
      `conflict: DOI 10.1000/test.5 has different content in ${endpoint}#6 and ${endpoint} result 12 (dropped as a duplicate) (the first is written, the second left out as a duplicate)`,
      `conflict: ORCID iD ${ORCID} is "Müller, Anna" in 10.1000/test.3 and "Gamma, Gil" in 10.1000/test.14`,
    ]);
  });

  it('rejects records that a validator finds violations in (--validate)', async () => {
    const BAD = { severity: 'Violation', shape: 'srsh:Work', focusNode: '<x>', message: 'bad' };
    service = await startFakeService({ records: makeRecords(10), apiKey: KEY });
    const out = join(dir, 'out.nt');
    const rejectsPath = join(dir, 'rejects.jsonl');
    const summary = await exportRdf(
      base({
        output: out,
        rejectsPath,
        validation: {
          batchSize: 1,
          violations: async (records) =>
            records.map((quads) => (quads.some((q) => q.object.value === '10.1000/test.4') ? [BAD] : [])),
        },
      }),
    );
    expect(summary.counts).toMatchObject({ records: 9, rejects: 1 });
    expect(readFileSync(out, 'utf8')).not.toContain('test.4>');
    const line = JSON.parse(readFileSync(rejectsPath, 'utf8')) as { code: string; violations: unknown[] };
    expect(line).toMatchObject({
      code: 'validation-failed',
      field: '(shapes)',
      recordId: '10.1000/test.4',
      violations: [BAD],
      reason: 'does not conform to the shapes: Violation srsh:Work <x>: bad',
    });
    const state = await readExportState(`${out}.state.json`);
    expect(state?.identity.validate).toBe(true);
  });

  it('gives the same output under injected faults', async () => {
    service = await startFakeService({ records: makeRecords(60), apiKey: KEY });
    const clean = join(dir, 'clean.nt');
    await exportRdf(base({ output: clean }));
    await service.close();
    service = await startFakeService({
      records: makeRecords(60),
      apiKey: KEY,
      fault: randomFaults(3, { error5xx: 0.1, tooMany: 0.05, truncated: 0.05, dropped: 0.05 }),
    });
    const faulty = join(dir, 'faulty.nt');
    const summary = await exportRdf(base({ output: faulty, retries: 8 } as Partial<ExportOptions>));
    expect(readFileSync(faulty)).toEqual(readFileSync(clean));
    expect(summary.counts.retries).toBeGreaterThan(0);
  });

  it('does not advise --resume after an error that running again cannot cure (a 400 on a deep page)', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY, maxStart: 10 });
    const out = join(dir, 'deep.nt');
    const err = (await exportRdf(base({ output: out, concurrency: 1 })).catch((e: unknown) => e)) as ToolkitError;
    expect(err.code).toBe('http-status');
    expect(err.message).toMatch(/progress is saved in .*: the same export would fail the same way/);
    expect(err.details).toMatchObject({ next: 'afresh' });
    expect(err.message).not.toContain('with `resume` to continue');
  });

  it('stops cleanly when the quota runs out, saving state, and resumes later', async () => {
    let quotaGone = false;
    let served = 0;
    service = await startFakeService({
      records: makeRecords(40),
      apiKey: KEY,
      fault: ({ res }) => {
        if (!quotaGone && ++served > 2) quotaGone = true;
        if (!quotaGone) return false;
        res.writeHead(429, { 'retry-after': '86400' });
        res.end(`{"message":"Daily limit exceeded for ${KEY}"}`);
        return true;
      },
    });
    const out = join(dir, 'out.ttl');
    const err = (await exportRdf(base({ output: out, concurrency: 1 })).catch((e: unknown) => e)) as ToolkitError;
    expect(err.code).toBe('quota');
    expect(err.message).toContain('`resume`');
    expect(err.message).not.toContain(KEY);
    const state = await readExportState(`${out}.state.json`);
    expect(state?.counts.records).toBe(20);
    quotaGone = false;
    served = -1000;
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.counts.records).toBe(40);
  });

  it('a page size lowered to the plan is kept in the state: a resume goes on with it and ends with the bytes of an export at 25', async () => {
    let quotaGone = false;
    let served = 0;
    service = await startFakeService({
      records: makeRecords(120),
      apiKey: KEY,
      maxPageSize: 25,
      fault: ({ url, res }) => {
        if (url.searchParams.get('p') === '25' && ++served > 2) quotaGone = true;
        if (!quotaGone) return false;
        res.writeHead(429, { 'retry-after': '86400' });
        res.end('{"message":"Daily limit exceeded"}');
        return true;
      },
    });
    const out = join(dir, 'lowered.nt');
    const warnings: string[] = [];
    const err = (await exportRdf(
      base({ output: out, pageSize: 100, concurrency: 1, onWarning: (w) => warnings.push(w) }),
    ).catch((e: unknown) => e)) as ToolkitError;
    expect(err.code).toBe('quota');
    expect(warnings).toEqual([expect.stringMatching(/refused 100 records a page .*harvesting 25 a page/)]);
    const state = await readExportState(`${out}.state.json`);
    expect(state).toMatchObject({
      identity: { pageSize: 100 },
      cursor: { pageSize: 25, start: 51 },
      counts: { records: 50 },
    });
    quotaGone = false;
    served = -1000;
    const resumedFrom = service.requests.length;
    const summary = await exportRdf(
      base({ output: out, pageSize: 100, resume: true, onWarning: (w) => warnings.push(w) }),
    );
    expect(summary.counts.records).toBe(120);
    expect(warnings).toHaveLength(1); // no second 403: the resume asked 25 at once
    expect(new Set(service.requests.slice(resumedFrom).map((u) => u.searchParams.get('p')))).toEqual(new Set(['25']));
    const at25 = join(dir, 'at25.nt');
    await exportRdf(base({ output: at25, pageSize: 25 }));
    expect(readFileSync(out)).toEqual(readFileSync(at25));
  });

  it('never writes the key into output, state, side files, rejects, meta, logs or errors', async () => {
    service = await startFakeService({ records: makeRecords(25), apiKey: KEY });
    const out = join(dir, 'out.nq');
    const logs: string[] = [];
    await interrupted(
      base({
        output: out,
        metaPath: join(dir, 'meta.ttl'),
        rejectsPath: join(dir, 'r.jsonl'),
        onWarning: (w) => logs.push(w),
      }),
      1,
    );
    await exportRdf(
      base({
        output: out,
        resume: true,
        metaPath: join(dir, 'meta.ttl'),
        rejectsPath: join(dir, 'r.jsonl'),
        onWarning: (w) => logs.push(w),
        onProgress: (p) => logs.push(JSON.stringify(p)),
      }),
    );
    const bad = await exportRdf(
      base({ output: join(dir, 'bad.nt'), pageSize: 100, baseUrl: `${service.url}/nowhere` }),
    ).catch((e: Error) => e);
    logs.push(String((bad as Error).message), JSON.stringify((bad as ToolkitError).details));
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(KEY), file).toBe(false);
      expect(bytes.includes(encodeURIComponent(KEY)), file).toBe(false);
    }
    expect(logs.join('\n')).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(encodeURIComponent(KEY));
  });

  it('writes provenance: a --meta file and, in N-Quads, a metadata graph, deterministic apart from times', async () => {
    service = await startFakeService({ records: makeRecords(15), apiKey: KEY });
    const a = join(dir, 'a.nq');
    const meta = join(dir, 'meta.ttl');
    const summary = await exportRdf(base({ output: a, metaPath: meta }));
    const text = readFileSync(meta, 'utf8');
    expect(text).toContain('prov:Activity');
    expect(text).toMatch(/sr:statementsWritten (\d+)/);
    expect(Number(/sr:statementsWritten (\d+)/.exec(text)![1])).toBe(summary.counts.triples);
    expect(text).toContain(`prov:used <${service.url}/meta/v2/json>`);
    expect(text).toContain('sr:query "type:Journal"');
    const nq = readFileSync(a, 'utf8');
    expect(nq).toContain(
      `<http://www.w3.org/ns/prov#wasGeneratedBy> <${summary.dataset}#export> <${summary.dataset}> .`,
    );
    const b = join(dir, 'b.nq');
    await exportRdf(base({ output: b, now: () => new Date('2030-01-01T00:00:00Z') }));
    const strip = (s: string) =>
      s
        .split('\n')
        .filter((l) => !/AtTime>/.test(l))
        .join('\n');
    expect(strip(readFileSync(b, 'utf8'))).toBe(strip(nq));
  });

  it('splits into date windows with --split-by and tracks them in the state across a resume', async () => {
    service = await startFakeService({ records: makeRecords(120, { startYear: 2024 }), apiKey: KEY });
    const full = join(dir, 'full.nt');
    await exportRdf(
      base({ output: full, splitBy: 'month', query: 'type:Journal onlinedatefrom:2024-01-01 onlinedateto:2024-12-31' }),
    );
    const part = join(dir, 'part.nt');
    const opts = base({
      output: part,
      splitBy: 'month',
      query: 'type:Journal onlinedatefrom:2024-01-01 onlinedateto:2024-12-31',
    });
    await interrupted(opts, 4);
    const state = await readExportState(`${part}.state.json`);
    expect(state?.cursor.windows?.length).toBeGreaterThan(0);
    await exportRdf({ ...opts, resume: true });
    expect(readFileSync(part)).toEqual(readFileSync(full));
    expect(readFileSync(full, 'utf8').match(/<http:\/\/purl\.org\/ontology\/bibo\/doi>/g)).toHaveLength(120);
  });
});

/** Quads by graph IRI ('' for the default graph). */
function byGraph(quads: readonly RDF.Quad[]): Map<string, RDF.Quad[]> {
  const graphs = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const list = graphs.get(q.graph.value) ?? [];
    list.push(q);
    graphs.set(q.graph.value, list);
  }
  return graphs;
}

/** The mapper's quads of a record, in its record graph. */
function recordQuads(record: Record<string, unknown>, graphBase?: string): RDF.Quad[] {
  const { quads, doi } = mapRecord(normalizeRecord(record), graphBase ? { base: graphBase } : {});
  const g = DataFactory.namedNode(recordGraphIri(doi, graphBase));
  return quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g));
}

describe('exportRdf with graphPerRecord', () => {
  it("writes N-Quads of N records as N record graphs, each holding its own record's quads only, and the description graph", async () => {
    const records = makeRecords(25);
    service = await startFakeService({ records, apiKey: KEY });
    const out = join(dir, 'g.nq');
    const summary = await exportRdf(base({ output: out, graphPerRecord: true }));
    const graphs = byGraph(parseNQuads(readFileSync(out, 'utf8')));
    const recordGraphs = records.map((r) => recordGraphIri(r.doi));
    expect([...graphs.keys()].sort()).toEqual([...recordGraphs, summary.dataset].sort());
    for (const r of records) expectIsomorphic(graphs.get(recordGraphIri(r.doi))!, recordQuads(r), `graph of ${r.doi}`);
    const meta = graphs.get(summary.dataset)!;
    const pattern = meta.filter((q) => q.predicate.value === `${NS.sr}recordGraphPattern`);
    expect(pattern.map((q) => [q.subject.value, q.object.value])).toEqual([
      [summary.dataset, 'https://w3id.org/scholarly-rdf/record/{doi}'],
    ]);
    const state = await readExportState(`${out}.state.json`);
    expect(state?.identity.graphPerRecord).toBe(true);
  });

  it('writes JSON-LD that is the same dataset as the N-Quads (record graphs as {"@id", "@graph"} objects)', async () => {
    const records = makeRecords(12);
    service = await startFakeService({ records, apiKey: KEY });
    const nq = join(dir, 'g.nq');
    const jl = join(dir, 'g.jsonld');
    const summary = await exportRdf(base({ output: nq, graphPerRecord: true }));
    await exportRdf(base({ output: jl, graphPerRecord: true }));
    const doc = JSON.parse(readFileSync(jl, 'utf8')) as { '@graph': { '@id': string; '@graph': unknown[] }[] };
    expect(doc['@graph'].map((g) => g['@id'])).toEqual(records.map((r) => recordGraphIri(r.doi)));
    expect(doc['@graph'].every((g) => Object.keys(g).sort().join() === '@graph,@id')).toBe(true);
    // JSON-LD has no description graph (it goes to --meta).
    const fromNQuads = parseNQuads(readFileSync(nq, 'utf8')).filter((q) => q.graph.value !== summary.dataset);
    expectIsomorphic(await parseJsonLd(readFileSync(jl, 'utf8')), fromNQuads, 'JSON-LD vs N-Quads');
  });

  it('puts the record graphs under the mapping base', async () => {
    const records = makeRecords(3);
    service = await startFakeService({ records, apiKey: KEY });
    const out = join(dir, 'b.nq');
    const meta = join(dir, 'b.meta.ttl');
    await exportRdf(base({ output: out, graphPerRecord: true, base: 'https://example.org/kg/', metaPath: meta }));
    const graphs = byGraph(parseNQuads(readFileSync(out, 'utf8')));
    for (const r of records) expect(graphs.has(`https://example.org/kg/record/${r.doi}`)).toBe(true);
    expect(readFileSync(meta, 'utf8')).toContain('sr:recordGraphPattern "https://example.org/kg/record/{doi}"');
  });

  for (const format of ['nquads', 'jsonld'] as FormatName[]) {
    it(`resumes a ${format} export with record graphs to the same bytes as an uninterrupted one`, async () => {
      service = await startFakeService({ records: makeRecords(33), apiKey: KEY });
      const full = join(dir, `full.${EXT[format]}`);
      await exportRdf(base({ output: full, graphPerRecord: true }));
      const part = join(dir, `part.${EXT[format]}`);
      await interrupted(base({ output: part, graphPerRecord: true }), 2);
      appendFileSync(part, 'half a page');
      const summary = await exportRdf(base({ output: part, graphPerRecord: true, resume: true }));
      expect(summary.counts.records).toBe(33);
      expect(readFileSync(part)).toEqual(readFileSync(full));
    });
  }

  it("refuses to resume with the other setting, as any change of the export's identity", async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const a = join(dir, 'a.nq');
    await interrupted(base({ output: a, graphPerRecord: true }), 1);
    await expect(exportRdf(base({ output: a, resume: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('graphPerRecord (saved true, now false)'),
    });
    const b = join(dir, 'b.nq');
    await interrupted(base({ output: b }), 1);
    await expect(exportRdf(base({ output: b, resume: true, graphPerRecord: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('graphPerRecord (saved false, now true)'),
    });
  });

  it('is a usage error for formats without named graphs, naming the format, and together with graph', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    for (const [format, label] of [
      ['turtle', 'Turtle'],
      ['ntriples', 'N-Triples'],
      ['rdfxml', 'RDF/XML'],
    ] as const) {
      const err = (await exportRdf(base({ output: join(dir, `x.${EXT[format]}`), graphPerRecord: true })).catch(
        (e: unknown) => e,
      )) as ToolkitError;
      expect(err).toBeInstanceOf(ToolkitError);
      expect(err.code).toBe('usage');
      expect(err.message).toContain(`\`graphPerRecord\` needs N-Quads, JSON-LD or TriG output, not ${label}`);
    }
    await expect(
      exportRdf(base({ output: join(dir, 'y.nq'), graphPerRecord: true, graph: 'https://example.org/g' })),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('do not go together'),
    });
    expect(service.requests.length).toBe(0);
  });

  it('leaves rejects as they were: a record that cannot be mapped is in the rejects file and in no graph', async () => {
    const records = makeRecords(6);
    const withBad = [
      ...records.slice(0, 3),
      { ...records[0]!, doi: 'not-a-doi', identifier: 'x', title: 'bad' },
      ...records.slice(3),
    ];
    service = await startFakeService({ records: withBad as never, apiKey: KEY });
    const out = join(dir, 'r.nq');
    const rejectsPath = join(dir, 'r.jsonl');
    const summary = await exportRdf(base({ output: out, rejectsPath, graphPerRecord: true }));
    expect(summary.counts).toMatchObject({ records: 6, rejects: 1 });
    const graphs = byGraph(parseNQuads(readFileSync(out, 'utf8')));
    expect(graphs.size).toBe(7); // six records and the description
    expect((JSON.parse(readFileSync(rejectsPath, 'utf8')) as { record: { doi: string } }).record.doi).toBe('not-a-doi');
  });
});

describe('exportRdf dataset description', () => {
  const DCT = NS.dcterms;
  const has = (quads: RDF.Quad[], s: string, p: string, o?: string) =>
    quads.some((q) => q.subject.value === s && q.predicate.value === p && (o === undefined || q.object.value === o));

  it("keeps the service's notice as the source's description, never as dcterms:rights, and states a licence only when given", async () => {
    service = await startFakeService({ records: makeRecords(5), apiKey: KEY });
    const meta = join(dir, 'm.ttl');
    const summary = await exportRdf(base({ output: join(dir, 'm.nt'), metaPath: meta }));
    const quads = parseTurtle(readFileSync(meta, 'utf8'));
    const endpoint = `${service.url}/meta/v2/json`;
    expect(quads.some((q) => q.predicate.value === `${DCT}rights`)).toBe(false);
    expect(has(quads, endpoint, `${DCT}description`, 'This JSON was provided by Springer Nature')).toBe(true);
    expect(has(quads, summary.dataset, `${DCT}source`, endpoint)).toBe(true);
    expect(quads.some((q) => q.predicate.value === `${DCT}license`)).toBe(false);

    const licensed = join(dir, 'l.ttl');
    const cc0 = 'https://creativecommons.org/publicdomain/zero/1.0/';
    await exportRdf(base({ output: join(dir, 'l.nt'), metaPath: licensed, license: cc0 }));
    const withLicence = parseTurtle(readFileSync(licensed, 'utf8'));
    expect(
      withLicence
        .filter((q) => q.predicate.value === `${DCT}license`)
        .map((q) => [q.subject.value, q.object.termType, q.object.value]),
    ).toEqual([[summary.dataset, 'NamedNode', cc0]]);
  });

  it('writes the licence into the description graph of N-Quads, and refuses one that is not an IRI or has nowhere to go', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    const out = join(dir, 'l.nq');
    const summary = await exportRdf(base({ output: out, license: 'https://example.org/licence' }));
    expect(readFileSync(out, 'utf8')).toContain(
      `<${summary.dataset}> <${DCT}license> <https://example.org/licence> <${summary.dataset}> .`,
    );
    await expect(exportRdf(base({ output: join(dir, 'x.nq'), license: 'CC-BY 4.0' }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('is not an absolute IRI'),
    });
    await expect(
      exportRdf(base({ output: join(dir, 'x.ttl'), license: 'https://example.org/licence' })),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('add `metaPath`') });
    await expect(
      exportRdf(base({ output: join(dir, 'y.nq'), metaGraph: false, license: 'https://example.org/licence' })),
    ).rejects.toMatchObject({ code: 'usage' });
  });

  it('gives only true counts although shared nodes are written in every record that names them', async () => {
    service = await startFakeService({ records: makeRecords(24), apiKey: KEY });
    const out = join(dir, 'c.nt');
    const meta = join(dir, 'c.meta.ttl');
    const summary = await exportRdf(base({ output: out, metaPath: meta }));
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const dump = parseNQuads(lines.join('\n'));
    const desc = parseTurtle(readFileSync(meta, 'utf8'));
    const value = (s: string, p: string) =>
      desc.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);
    // Statements as written, repeats included: the lines of the file.
    expect(value(`${summary.dataset}#export`, `${NS.sr}statementsWritten`)).toEqual([String(lines.length)]);
    expect(summary.counts.triples).toBe(lines.length);
    // No count of distinct triples or entities: it would need to remember every node written.
    expect(value(summary.dataset, `${NS.void}triples`)).toEqual([]);
    expect(value(summary.dataset, `${NS.void}entities`)).toEqual([]);
    // Distinct classes of all nodes.
    const typeOf = dump.filter((q) => q.predicate.value === `${NS.rdf}type`);
    expect(value(summary.dataset, `${NS.void}classes`)).toEqual([
      String(new Set(typeOf.map((q) => q.object.value)).size),
    ]);
    // A partition per class of the works, with the number of works (distinct subjects of the class in the dump).
    const partitions = value(summary.dataset, `${NS.void}classPartition`);
    const works = new Set(
      typeOf.filter((q) => q.subject.value.startsWith('https://doi.org/')).map((q) => q.object.value),
    );
    expect(partitions.map((p) => value(p, `${NS.void}class`)[0]).sort()).toEqual([...works].sort());
    for (const p of partitions) {
      const cls = value(p, `${NS.void}class`)[0]!;
      const distinct = new Set(typeOf.filter((q) => q.object.value === cls).map((q) => q.subject.value));
      expect(value(p, `${NS.void}entities`), cls).toEqual([String(distinct.size)]);
    }
    expect(value(`${summary.dataset}#export`, `${NS.sr}records`)).toEqual(['24']);
  });

  it('keeps the counts true across a resume', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const full = join(dir, 'full.nq');
    await exportRdf(base({ output: full }));
    const part = join(dir, 'part.nq');
    await interrupted(base({ output: part }), 2);
    await exportRdf(base({ output: part, resume: true }));
    expect(readFileSync(part)).toEqual(readFileSync(full));
    const state = await readExportState(`${part}.state.json`);
    expect(state?.version).toBe(2);
    expect(Object.values(state!.classes).every((n) => n === 35)).toBe(true);
    expect(state!.otherClasses.length).toBeGreaterThan(0);
  });

  it('refuses to resume a state written before this model (version 1)', async () => {
    service = await startFakeService({ records: makeRecords(20), apiKey: KEY });
    const out = join(dir, 'old.nt');
    await interrupted(base({ output: out }), 1);
    const statePath = `${out}.state.json`;
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, unknown>;
    writeFileSync(statePath, JSON.stringify({ ...state, version: 1 }));
    await expect(exportRdf(base({ output: out, resume: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('written by an earlier version'),
    });
  });
});
