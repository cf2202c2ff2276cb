import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/ApiClient.js';
import { DoiSet } from '../../src/record/DoiSet.js';
import { extractDateBounds, fitsUnit, splitWindow, windowQuery } from '../../src/client/dateWindows.js';
import { harvest, harvestPages, type HarvestCursor } from '../../src/client/harvest.js';
import { reachableRecords, searchPages } from '../../src/client/searchPages.js';
import { Catalogue, startServer } from '../../src/server/index.js';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { exportRdf } from '../../src/export/exportRdf.js';
import { convertFiles } from '../../src/tasks/convertFiles.js';
import type { Rejection } from '../../src/pipeline/Rejection.js';
import {
  collect,
  makeRecords,
  randomFaults,
  startFakeService,
  type FakeRecord,
  type FakeService,
} from './fakeService.js';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('searchPages', () => {
  it('pages 1-based by s + p and stops when s passes the total, never asking past the end', async () => {
    service = await startFakeService({ records: makeRecords(52) });
    const client = new ApiClient({ baseUrl: service.url });
    const pages = await collect(searchPages(client, 'x', { pageSize: 25, concurrency: 1 }));
    expect(pages.map((p) => [p.start, p.records.length])).toEqual([
      [1, 25],
      [26, 25],
      [51, 2],
    ]);
    expect(service.requests.map((u) => u.searchParams.get('s'))).toEqual(['1', '26', '51']);
  });

  it('with concurrency keeps query order and sends nothing past the total', async () => {
    service = await startFakeService({ records: makeRecords(100), latencyMs: 5 });
    const client = new ApiClient({ baseUrl: service.url });
    const pages = await collect(searchPages(client, 'x', { pageSize: 10, concurrency: 4 }));
    expect(pages.map((p) => p.start)).toEqual([1, 11, 21, 31, 41, 51, 61, 71, 81, 91]);
    expect(service.requests).toHaveLength(10);
  });

  it('stops on an empty page even when no total and no nextPage are sent (total "0" past the end is not believed)', async () => {
    service = await startFakeService({ records: makeRecords(20), nextPage: false });
    const client = new ApiClient({ baseUrl: service.url });
    // resume in the middle: no first page with a total
    const pages = await collect(searchPages(client, 'x', { start: 11, pageSize: 10, concurrency: 2 }));
    expect(pages.map((p) => p.records.length)).toEqual([10]);
  });

  it('follows nextPage when it disagrees with s + p', async () => {
    const records = makeRecords(30);
    service = await startFakeService({
      records,
      fault: ({ url, res }) => {
        if (url.searchParams.get('s') !== '1') return false;
        res.writeHead(200);
        res.end(
          JSON.stringify({
            query: 'x',
            result: [{ total: '30', start: '1', pageLength: '10' }],
            records: records.slice(0, 10),
            nextPage: '/meta/v2/json?q=x&s=21&p=10&api_key=',
          }),
        );
        return true;
      },
    });
    const client = new ApiClient({ baseUrl: service.url });
    const pages = await collect(searchPages(client, 'x', { pageSize: 10, concurrency: 3 }));
    expect(pages.map((p) => p.start)).toEqual([1, 21]);
  });

  it('does not ask past maxStart', async () => {
    service = await startFakeService({ records: makeRecords(100), maxStart: 30 });
    const client = new ApiClient({ baseUrl: service.url });
    const pages = await collect(searchPages(client, 'x', { pageSize: 10, maxStart: 30 }));
    expect(pages.map((p) => p.start)).toEqual([1, 11, 21]);
    expect(reachableRecords(10, 30)).toBe(30);
    expect(reachableRecords(25, 10_000)).toBe(10_000);
  });
});

describe('dateWindows', () => {
  it('extracts the date bounds and rebuilds window queries', () => {
    const b = extractDateBounds('keyword:"graphene" onlinedatefrom:2024-01-01 type:Journal');
    expect(b).toEqual({ rest: 'keyword:"graphene" type:Journal', from: '2024-01-01' });
    expect(windowQuery(b.rest, { from: '2024-01-01', to: '2024-06-30' })).toBe(
      'keyword:"graphene" type:Journal onlinedatefrom:2024-01-01 onlinedateto:2024-06-30',
    );
  });

  it('pages on to the end when the service sends an empty total, rather than reading it as 0', async () => {
    service = await startFakeService({ records: makeRecords(23), emptyTotal: true });
    const pages = await collect(harvestPages('x', { baseUrl: service.url, pageSize: 5 }));
    expect(pages.flatMap((p) => p.records)).toHaveLength(23);
    expect(pages[0]!.total).toBeUndefined();
  });

  it('keeps a query with OR, NOT or parentheses whole, and puts it in parentheses in its windows', () => {
    for (const q of [
      'type:Journal OR type:Book',
      'year:2015 NOT onlinedatefrom:2015-06-01',
      '(a OR b) onlinedatefrom:2020-01-01',
    ]) {
      expect(extractDateBounds(q)).toEqual({ rest: q });
      expect(windowQuery(q, { from: '2020-01-01', to: '2020-12-31' })).toBe(
        `(${q}) onlinedatefrom:2020-01-01 onlinedateto:2020-12-31`,
      );
    }
    // Operators inside a phrase, and a DOI's own parentheses, are no operators.
    expect(extractDateBounds('title:"war OR peace" onlinedatefrom:2020-01-01')).toEqual({
      rest: 'title:"war OR peace"',
      from: '2020-01-01',
    });
    expect(extractDateBounds('doi:10.1002/(SICI)1097 onlinedateto:2020-01-01')).toEqual({
      rest: 'doi:10.1002/(SICI)1097',
      to: '2020-01-01',
    });
  });

  it('harvests a query with OR or NOT in date windows as it harvests it whole (the local service)', async () => {
    const server = await startServer({
      catalogue: Catalogue.fromFile(sampleCataloguePath()),
      apiKeys: ['k-windows:premium'],
    });
    try {
      const client = new ApiClient({ baseUrl: server.url, apiKey: 'k-windows' });
      for (const q of ['type:Journal OR type:Book', 'year:2015 NOT onlinedatefrom:2015-06-01']) {
        const whole = (await collect(harvestPages(q, { client, pageSize: 25 }))).flatMap((p) =>
          p.records.map((r) => r['doi']),
        );
        const pages = await collect(harvestPages(q, { client, pageSize: 25, splitBy: 'year' }));
        const windowed = pages.flatMap((p) => p.records.map((r) => r['doi']));
        expect(windowed.sort(), q).toEqual(whole.sort());
        expect(
          pages.reduce((n, p) => n + p.duplicates, 0),
          q,
        ).toBe(0);
      }
    } finally {
      await server.close();
    }
  });

  it('halves at year, then month, then day boundaries', () => {
    expect(splitWindow({ from: '2020-03-05', to: '2023-12-31' })).toEqual([
      { from: '2020-03-05', to: '2021-12-31' },
      { from: '2022-01-01', to: '2023-12-31' },
    ]);
    expect(splitWindow({ from: '2024-01-01', to: '2024-12-31' })).toEqual([
      { from: '2024-01-01', to: '2024-06-30' },
      { from: '2024-07-01', to: '2024-12-31' },
    ]);
    expect(splitWindow({ from: '2024-02-01', to: '2024-02-29' })).toEqual([
      { from: '2024-02-01', to: '2024-02-14' },
      { from: '2024-02-15', to: '2024-02-29' },
    ]);
    expect(splitWindow({ from: '2024-02-03', to: '2024-02-03' })).toBeUndefined();
    expect(fitsUnit({ from: '2024-01-01', to: '2024-12-31' }, 'year')).toBe(true);
    expect(fitsUnit({ from: '2024-01-01', to: '2024-12-31' }, 'month')).toBe(false);
  });
});

describe('DoiSet', () => {
  it('is case-insensitive, grows, and round-trips through its side-file entries', () => {
    const set = new DoiSet(4, { queueNew: true });
    for (let i = 0; i < 5000; i++) expect(set.add(`10.1000/X.${i}`)).toBe(true);
    expect(set.add('10.1000/x.17')).toBe(false);
    expect(set.size).toBe(5000);
    const copy = new DoiSet(4, { stable: true });
    copy.load(set.drainNew());
    expect(copy.size).toBe(5000);
    expect(copy.has('10.1000/x.4999')).toBe(true);
    expect(copy.has('10.1000/x.5000')).toBe(false);
    expect(set.drainNew()).toHaveLength(0);
  });

  it('queues nothing unless asked to (a harvest without a side file keeps only the table)', () => {
    const set = new DoiSet();
    for (let i = 0; i < 100; i++) set.add(`10.1000/${i}`);
    expect(set.size).toBe(100);
    expect(set.drainNew()).toHaveLength(0);
  });
});

describe('harvestPages', () => {
  it('drops records seen before by DOI (the order can shift between pages)', async () => {
    const records = makeRecords(30);
    // page 2 repeats two records of page 1 (a shifted order)
    const shifted = [...records.slice(0, 10), records[3]!, records[7]!, ...records.slice(10)];
    service = await startFakeService({ records: shifted });
    const got = await collect(harvest('x', { baseUrl: service.url, pageSize: 10 }));
    expect(got).toHaveLength(30);
    expect(new Set(got.map((r) => r['doi'])).size).toBe(30);
  });

  it('stops at maxRecords and says done', async () => {
    service = await startFakeService({ records: makeRecords(30) });
    const pages = await collect(harvestPages('x', { baseUrl: service.url, pageSize: 10, maxRecords: 15 }));
    expect(pages.flatMap((p) => p.records)).toHaveLength(15);
    expect(pages.at(-1)!.cursor.done).toBe(true);
  });

  it('resumes from any cursor with exactly the remaining records', async () => {
    service = await startFakeService({ records: makeRecords(47) });
    const full = await collect(harvestPages('x', { baseUrl: service.url, pageSize: 10, concurrency: 3 }));
    const all = full.flatMap((p) => p.records.map((r) => r['doi']));
    expect(all).toHaveLength(47);
    for (let k = 0; k < full.length; k++) {
      const seen = new DoiSet();
      for (const p of full.slice(0, k + 1)) for (const r of p.records) seen.add(r['doi'] as string);
      const rest = await collect(
        harvest('x', { baseUrl: service.url, pageSize: 10, cursor: full[k]!.cursor as HarvestCursor, seen }),
      );
      expect([
        ...full.slice(0, k + 1).flatMap((p) => p.records.map((r) => r['doi'])),
        ...rest.map((r) => r['doi']),
      ]).toEqual(all);
    }
  });

  it('splits a query deeper than paging reaches into date windows and harvests every record once', async () => {
    const records = makeRecords(700, { startYear: 2021 }); // ~2 years of records
    service = await startFakeService({ records, maxStart: 100 });
    const warnings: string[] = [];
    const pages = await collect(
      harvestPages('type:Journal', {
        baseUrl: service.url,
        pageSize: 50,
        maxStart: 100,
        concurrency: 2,
        today: new Date('2023-06-01'),
        onWarning: (w) => warnings.push(w),
      }),
    );
    const dois = pages.flatMap((p) => p.records.map((r) => r['doi']));
    expect(dois).toHaveLength(700);
    expect(new Set(dois).size).toBe(700);
    expect(warnings[0]).toContain('date windows');
    for (const u of service.requests) expect(Number(u.searchParams.get('s'))).toBeLessThanOrEqual(100);
    expect(pages.at(-1)!.cursor.done).toBe(true);
  });

  it('splits by month when asked, in date order', async () => {
    service = await startFakeService({ records: makeRecords(100, { startYear: 2024 }) });
    const pages = await collect(
      harvestPages('x onlinedatefrom:2024-01-01 onlinedateto:2024-12-31', {
        baseUrl: service.url,
        pageSize: 25,
        splitBy: 'month',
      }),
    );
    const windows = [
      ...new Set(pages.filter((p) => p.records.length).map((p) => `${p.window!.from}..${p.window!.to}`)),
    ];
    expect(windows).toEqual([
      '2024-01-01..2024-01-31',
      '2024-02-01..2024-02-29',
      '2024-03-01..2024-03-31',
      '2024-04-01..2024-04-30',
    ]);
    expect(pages.flatMap((p) => p.records)).toHaveLength(100);
  });

  it('gives the same records under injected faults as without', async () => {
    service = await startFakeService({
      records: makeRecords(200),
      fault: randomFaults(7, { error5xx: 0.1, tooMany: 0.05, truncated: 0.05, dropped: 0.05 }),
    });
    const retried: number[] = [];
    const got = await collect(
      harvest('x', {
        baseUrl: service.url,
        pageSize: 10,
        concurrency: 3,
        retryPolicy: { retries: 8, baseDelayMs: 1, maxDelayMs: 5 },
        onRetry: (e) => retried.push(e.attempt),
      }),
    );
    expect(got.map((r) => r['doi'])).toEqual(makeRecords(200).map((r) => r.doi));
    expect(retried.length).toBeGreaterThan(0);
  });
});

describe('one DOI in every command: DOIs that differ only by what the normaliser cleans away', () => {
  /** Five records, and three twins whose DOIs the normaliser makes their DOIs (NUL, U+FFFE, a decomposed é), each with its own title. */
  function withTwins(): FakeRecord[] {
    const records = makeRecords(5);
    records[4] = { ...records[4]!, doi: '10.1000/café', identifier: 'doi:10.1000/café' };
    const twin = (r: FakeRecord, doi: string): FakeRecord => ({
      ...r,
      doi,
      identifier: `doi:${doi}`,
      title: `Twin of ${r.title}`,
    });
    return [
      ...records,
      twin(records[1]!, '10.1000/test.1\u0000'),
      twin(records[2]!, '10.1000/test.2\uFFFE'),
      twin(records[4]!, '10.1000/cafe\u0301'),
    ];
  }

  /** The titles (schema:name) of each work of an N-Triples text. */
  function titlesByWork(nt: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const m of nt.matchAll(/^<(https:\/\/doi\.org\/[^>]+)> <http:\/\/schema\.org\/name> "([^"]*)"/gm))
      out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!]);
    return out;
  }

  it('the harvest drops the twin as a duplicate (so export never merges two records into one work)', async () => {
    service = await startFakeService({ records: withTwins() });
    const pages = await collect(harvestPages('x', { baseUrl: service.url, pageSize: 3 }));
    expect(pages.flatMap((p) => p.records.map((r) => r['title']))).toEqual(makeRecords(5).map((r) => r.title));
    expect(pages.reduce((n, p) => n + p.duplicates, 0)).toBe(3);
  });

  it('export writes each work once with one title, counting the twins as duplicates; convert rejects them as duplicate-doi', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doi-identity-'));
    try {
      service = await startFakeService({ records: withTwins() });
      const exported = join(dir, 'export.nt');
      const summary = await exportRdf({
        query: 'x',
        baseUrl: service.url,
        pageSize: 3,
        output: exported,
        retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
      });
      expect(summary.counts).toMatchObject({ records: 5, duplicates: 3, rejects: 0 });
      const exportTitles = titlesByWork(readFileSync(exported, 'utf8'));
      expect(exportTitles.size).toBe(5);
      for (const [work, titles] of exportTitles) expect(titles, work).toHaveLength(1);

      const input = join(dir, 'records.jsonl');
      writeFileSync(
        input,
        withTwins()
          .map((r) => JSON.stringify(r))
          .join('\n'),
      );
      const rejections: Rejection[] = [];
      const converted = join(dir, 'convert.nt');
      await convertFiles({ inputs: [input], output: converted, onRejected: (r) => rejections.push(r) });
      expect(rejections.map((r) => [r.index, r.code])).toEqual([
        [6, 'duplicate-doi'],
        [7, 'duplicate-doi'],
        [8, 'duplicate-doi'],
      ]);
      // The same works, with the same one title each, as export wrote.
      expect(titlesByWork(readFileSync(converted, 'utf8'))).toEqual(exportTitles);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
