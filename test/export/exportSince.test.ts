import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { exportRdf } from '../../src/export/exportRdf.js';
import { readExportState } from '../../src/export/ExportState.js';
import { checkSinceDate, sinceQuery } from '../../src/export/exportSince.js';
import { NS } from '../../src/rdf/namespaces.js';
import { makeRecords, startFakeService } from '../client/fakeService.js';
import { parseNQuads } from '../helpers/rdf.js';
import { exportHarness, interrupted } from './exportHarness.js';

const KEY = 'K3y-Of-Since/+=';
const h = exportHarness(KEY, 'export-since-');
// 60 records online 2020-01-01 … 2020-01-28, 2020-02-01 … 2020-02-28, 2020-03-01 … 2020-03-04.
const RECORDS = makeRecords(60);
const { namedNode: iri, literal } = DataFactory;
const xsd = (local: string) => iri(`${NS.xsd}${local}`);

/** The description a `metaPath` holds, as a set of triples. */
const description = (path: string) => new Store(new Parser().parse(readFileSync(path, 'utf8')));
/** The DOIs of the records in an N-Quads dump, from the graph each is in (one per record). */
const graphsOf = (path: string) => new Set(parseNQuads(readFileSync(path, 'utf8')).map((q) => q.graph.value));
const sentQueries = () => h.service!.requests.map((u) => u.searchParams.get('q'));

describe('sinceQuery', () => {
  it('adds onlinedatefrom: to a query of AND terms, keeps a later one of its own, wraps one with OR', () => {
    expect(sinceQuery('type:Journal', '2024-05-01')).toBe('type:Journal onlinedatefrom:2024-05-01');
    expect(sinceQuery('type:Journal onlinedatefrom:2020-01-01 onlinedateto:2025-01-01', '2024-05-01')).toBe(
      'type:Journal onlinedatefrom:2024-05-01 onlinedateto:2025-01-01',
    );
    expect(sinceQuery('onlinedatefrom:2025-01-01 type:Journal', '2024-05-01')).toBe(
      'type:Journal onlinedatefrom:2025-01-01',
    );
    expect(sinceQuery('type:Journal OR type:Book', '2024-05-01')).toBe(
      '(type:Journal OR type:Book) onlinedatefrom:2024-05-01',
    );
    expect(sinceQuery('type:Journal', undefined)).toBe('type:Journal');
  });

  it('checkSinceDate: a calendar date, else usage naming the option', () => {
    expect(checkSinceDate('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-2-1', 'yesterday', '2024-01-01T00:00:00Z']) {
      expect(() => checkSinceDate(bad, '--since')).toThrow(
        expect.objectContaining({
          code: 'usage',
          message: expect.stringContaining(`--since must be a date YYYY-MM-DD`),
        }),
      );
    }
  });
});

describe('exportRdf with since', () => {
  it('sends the query with onlinedatefrom:, writes only those records, each in its own graph, and describes the delta', async () => {
    h.service = await startFakeService({ records: RECORDS, apiKey: KEY });
    const output = join(h.dir, 'delta.nq');
    const meta = join(h.dir, 'delta.meta.ttl');
    const summary = await exportRdf(h.base({ output, metaPath: meta, since: '2020-02-01' }));
    expect(new Set(sentQueries())).toEqual(new Set(['type:Journal onlinedatefrom:2020-02-01']));
    expect(summary.counts.records).toBe(32);
    const graphs = graphsOf(output);
    // The record graphs, and the description's graph at the end.
    expect([...graphs].filter((g) => g.includes('/record/'))).toHaveLength(32);
    expect([...graphs].some((g) => g.endsWith('/record/10.1000/test.27'))).toBe(false);
    expect([...graphs].some((g) => g.endsWith('/record/10.1000/test.28'))).toBe(true);

    const d = description(meta);
    const dataset = iri(summary.dataset);
    const activity = iri(`${summary.dataset}#export`);
    expect(
      d.has(DataFactory.quad(activity, iri(`${NS.sr}query`), literal('type:Journal onlinedatefrom:2020-02-01'))),
    ).toBe(true);
    expect(
      d.has(
        DataFactory.quad(
          activity,
          iri(`${NS.prov}startedAtTime`),
          literal('2026-01-02T03:04:05.000Z', xsd('dateTime')),
        ),
      ),
    ).toBe(true);
    expect(
      d.has(
        DataFactory.quad(activity, iri(`${NS.prov}endedAtTime`), literal('2026-01-02T03:04:05.000Z', xsd('dateTime'))),
      ),
    ).toBe(true);
    const [period] = d.getObjects(dataset, iri(`${NS.dcterms}temporal`), null);
    expect(period).toBeDefined();
    expect(
      d.has(
        DataFactory.quad(
          period as ReturnType<typeof iri>,
          iri(`${NS.dcat}startDate`),
          literal('2020-02-01', xsd('date')),
        ),
      ),
    ).toBe(true);
    // A plain `since` follows no export.
    expect(d.getObjects(dataset, iri(`${NS.prov}wasDerivedFrom`), null)).toEqual([]);
    expect(readFileSync(meta, 'utf8')).not.toContain(KEY);
    expect((await readExportState(`${output}.state.json`))!.identity.since).toBe('2020-02-01');
  });

  it('refuses a bad date, a format without named graphs, `graph`, and since with changesSince (usage, naming the option)', async () => {
    h.service = await startFakeService({ records: RECORDS, apiKey: KEY });
    const output = join(h.dir, 'd.nq');
    await expect(exportRdf(h.base({ output, since: '2020-02-30' }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('`since` must be a date YYYY-MM-DD'),
    });
    await expect(exportRdf(h.base({ output: join(h.dir, 'd.ttl'), since: '2020-02-01' }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('N-Quads, JSON-LD or TriG output, not Turtle'),
    });
    await expect(exportRdf(h.base({ output, since: '2020-02-01', graph: 'https://ex.org/g' }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('not with `graph`'),
    });
    await expect(exportRdf(h.base({ output, since: '2020-02-01', graphPerRecord: false }))).rejects.toMatchObject({
      code: 'usage',
    });
    await expect(exportRdf(h.base({ output, since: '2020-02-01', changesSince: true }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('do not go together'),
    });
    expect(h.service.requests).toEqual([]);
  });
});

describe('exportRdf with changesSince', () => {
  it('takes the day the last finished export started (that day harvested again) and says the delta follows its dataset', async () => {
    h.service = await startFakeService({ records: RECORDS, apiKey: KEY });
    const output = join(h.dir, 'kg.nq');
    // No earlier export: everything, in record graphs.
    const first = await exportRdf(
      h.base({ output, changesSince: true, now: () => new Date('2020-02-10T23:30:00.000Z') }),
    );
    expect(sentQueries()).toContain('type:Journal');
    expect(first.counts.records).toBe(60);
    h.service.requests.length = 0;

    const meta = join(h.dir, 'kg.meta.ttl');
    const second = await exportRdf(
      h.base({ output, metaPath: meta, changesSince: true, now: () => new Date('2020-03-02T08:00:00.000Z') }),
    );
    expect(new Set(sentQueries())).toEqual(new Set(['type:Journal onlinedatefrom:2020-02-10']));
    // 2020-02-10 … 2020-02-28 and 2020-03-01 … 2020-03-04: the boundary day again.
    expect(second.counts.records).toBe(23);
    expect([first.since, second.since]).toEqual([undefined, '2020-02-10']);
    expect(second.dataset).not.toBe(first.dataset);
    const d = description(meta);
    expect(d.getObjects(iri(second.dataset), iri(`${NS.prov}wasDerivedFrom`), null).map((t) => t.value)).toEqual([
      first.dataset,
    ]);
    const state = (await readExportState(`${output}.state.json`))!;
    expect(state).toMatchObject({
      complete: true,
      identity: { since: '2020-02-10' },
      previous: { dataset: first.dataset, startedAt: '2020-02-10T23:30:00.000Z' },
    });

    // The next delta follows this one, from the day it started.
    h.service.requests.length = 0;
    await exportRdf(
      h.base({ output, changesSince: true, resume: true, now: () => new Date('2020-03-05T00:00:00.000Z') }),
    );
    expect(new Set(sentQueries())).toEqual(new Set(['type:Journal onlinedatefrom:2020-03-02']));
  });

  it('an interrupted delta, resumed, keeps its date and the export it follows', async () => {
    h.service = await startFakeService({ records: RECORDS, apiKey: KEY });
    const output = join(h.dir, 'kg.nq');
    const first = await exportRdf(
      h.base({ output, changesSince: true, now: () => new Date('2020-02-10T12:00:00.000Z') }),
    );
    await interrupted(h.base({ output, changesSince: true, now: () => new Date('2020-03-01T00:00:00.000Z') }), 1);
    h.service.requests.length = 0;
    const resumed = await exportRdf(
      h.base({ output, changesSince: true, resume: true, now: () => new Date('2020-03-03T00:00:00.000Z') }),
    );
    expect(resumed.resumed).toBe(true);
    expect(new Set(sentQueries())).toEqual(new Set(['type:Journal onlinedatefrom:2020-02-10']));
    expect(resumed.counts.records).toBe(23);
    expect((await readExportState(`${output}.state.json`))!.previous).toEqual({
      dataset: first.dataset,
      startedAt: '2020-02-10T12:00:00.000Z',
    });
  });

  it('a finished export of another query in the state file: state-mismatch, nothing harvested', async () => {
    h.service = await startFakeService({ records: RECORDS, apiKey: KEY });
    const output = join(h.dir, 'kg.nq');
    await exportRdf(h.base({ output, graphPerRecord: true, query: 'type:Book' }));
    h.service.requests.length = 0;
    await expect(exportRdf(h.base({ output, changesSince: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('another query'),
    });
    expect(h.service.requests).toEqual([]);
  });
});
