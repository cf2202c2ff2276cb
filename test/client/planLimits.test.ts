/**
 * The client against the service as it answers since 2026 (issue 31): the
 * "no data" 404 is an empty result, a 403 "premium feature" is told apart by
 * what the request asked (the page size is lowered once and the harvest goes
 * on; a premium-only query field stops it, naming the field), a plain 403 is
 * throttling, and `plan` checks a query before the first request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/ApiClient.js';
import { harvest, harvestPages } from '../../src/client/harvest.js';
import { HttpError, ToolkitError } from '../../src/errors.js';
import {
  collect,
  makeRecords,
  NO_DATA_404_BODY,
  startFakeService,
  type FakeRecord,
  type FakeService,
} from './fakeService.js';

const KEY = 'k3y-of-a-basic-plan';
const noSleep = async () => undefined;
let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const doisOf = (records: readonly { doi?: unknown }[]) => records.map((r) => String(r.doi));

describe('the 2026 "no data" 404', () => {
  it('is an empty page of total 0, marked noData; a 404 with another body still stops with not-found', async () => {
    service = await startFakeService({ records: makeRecords(5), apiKey: KEY, empty404: true });
    const client = new ApiClient({ baseUrl: service.url, apiKey: KEY, sleep: noSleep });
    const page = await client.fetchPage({ q: 'onlinedatefrom:2099-01-01', s: 1, p: 10 });
    expect(page).toMatchObject({
      records: [],
      total: 0,
      noData: true,
      apiMessage: 'No data was found for the given query.',
    });
    expect(service.requests).toHaveLength(1); // not retried
    expect((await client.fetchPage({ q: 'x', s: 1, p: 10 })).noData).toBeUndefined();
    const wrongPath = new ApiClient({ baseUrl: `${service.url}/wrong`, apiKey: KEY, sleep: noSleep });
    await expect(wrongPath.fetchPage({ q: 'x', s: 1, p: 10 })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('check `baseUrl`'),
    });
  });

  it('a DOI the service does not know is no record, not an error', async () => {
    service = await startFakeService({ records: makeRecords(3), empty404: true });
    const client = new ApiClient({ baseUrl: service.url });
    const { record, page } = await client.getRecord('10.1000/none');
    expect(record).toBeUndefined();
    expect(page.noData).toBe(true);
    expect((await client.getRecord('10.1000/test.2')).record?.['doi']).toBe('10.1000/test.2');
  });

  it('a harvest of a query with no hits ends with no records; one with hits gets them all, also when past-the-end pages are 404s', async () => {
    service = await startFakeService({ records: makeRecords(30), empty404: 'past-end' });
    expect(await collect(harvest('onlinedatefrom:2099-01-01', { baseUrl: service.url }))).toEqual([]);
    const pages = await collect(harvestPages('onlinedatefrom:2099-01-01', { baseUrl: service.url }));
    expect(pages.map((p) => [p.records.length, p.cursor.done])).toEqual([[0, true]]);
    // 30 records in pages of 10: the total says when to stop; a page past it would be a 404 now.
    expect(doisOf(await collect(harvest('x', { baseUrl: service.url, pageSize: 7, concurrency: 3 })))).toEqual(
      doisOf(makeRecords(30)),
    );
  });

  it('a harvest in date windows skips the empty ones and harvests every record of the others', async () => {
    // Records in January and March 2020 only: every February window, and the months after March, are 404s.
    const records: FakeRecord[] = makeRecords(60).filter(
      (r) => r.onlineDate < '2020-02-01' || (r.onlineDate >= '2020-03-01' && r.onlineDate < '2020-04-01'),
    );
    service = await startFakeService({ records, empty404: true });
    const got = await collect(
      harvest('onlinedatefrom:2020-01-01 onlinedateto:2020-12-31', {
        baseUrl: service.url,
        splitBy: 'month',
        pageSize: 10,
      }),
    );
    expect(doisOf(got).sort()).toEqual(doisOf(records).sort());
    const empties = service.requests.filter((u) =>
      /onlinedatefrom:2020-0[2,4-9]|onlinedatefrom:2020-1/.test(u.searchParams.get('q') ?? ''),
    );
    expect(empties.length).toBeGreaterThan(0);
    // a deep query split because paging cannot reach it: the empty windows of its range are skipped too
    const deep = await collect(
      harvest('x', { baseUrl: service.url, pageSize: 5, maxStart: 11, today: new Date('2020-12-31') }),
    );
    expect(doisOf(deep).sort()).toEqual(doisOf(records).sort());
  });
});

describe('403 "premium feature"', () => {
  it('on the page size: the harvest lowers it to 25 once, with one warning, gets the same records and records it in the cursor', async () => {
    service = await startFakeService({ records: makeRecords(130), apiKey: KEY, maxPageSize: 25 });
    const base = { baseUrl: service.url, apiKey: KEY, sleep: noSleep };
    const at25 = doisOf(await collect(harvest('x', { ...base, pageSize: 25 })));
    const warnings: string[] = [];
    const pages = await collect(harvestPages('x', { ...base, pageSize: 100, onWarning: (w) => warnings.push(w) }));
    expect(doisOf(pages.flatMap((p) => p.records))).toEqual(at25);
    expect(at25).toHaveLength(130);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /refused 100 records a page as beyond the key's plan \(403: Access to this premium feature.*harvesting 25 a page/,
    );
    expect(warnings[0]).not.toContain(KEY);
    expect(pages.every((p) => p.cursor.pageSize === 25)).toBe(true);
    // A resume from a cursor keeps the page size the harvest went on with (no second 403).
    const before = service.requests.length;
    const rest = await collect(
      harvestPages('x', { ...base, pageSize: 100, cursor: pages[1]!.cursor, alreadyHarvested: 50 }),
    );
    expect(doisOf(rest.flatMap((p) => p.records))).toEqual(at25.slice(50));
    expect(service.requests.slice(before).map((u) => u.searchParams.get('p'))).toEqual(new Array(4).fill('25'));
  });

  it('on a query field: the error names the field, says it needs a premium key and what a basic key can use instead', async () => {
    service = await startFakeService({
      records: makeRecords(3),
      fault: ({ url, res }) => {
        if (!/year:/.test(url.searchParams.get('q') ?? '')) return false;
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end('{"status":"Fail","message":"Access to this premium feature is restricted."}');
        return true;
      },
    });
    const err = (await collect(
      harvest('keyword:graphene year:2015', { baseUrl: service.url, apiKey: KEY, pageSize: 25 }),
    ).catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.code).toBe('plan-limit');
    expect(err.details).toMatchObject({ limit: 'query-field', status: 403 });
    expect(err.message).toContain(
      'the query field `year:` (year:2015) needs a premium key; with a basic key use onlinedatefrom:/onlinedateto: or datefrom:/dateto:',
    );
    expect(err.message).toContain('403: Access to this premium feature is restricted.');
    expect(err.message).not.toContain(KEY);
    expect(service.requests).toHaveLength(1);
  });

  it('a plain 403 (no "premium") is throttling: retried like a 429, never a plan limit', async () => {
    let n = 0;
    service = await startFakeService({
      records: makeRecords(3),
      fault: ({ res }) => {
        if (n++ >= 2) return false;
        res.writeHead(403, { 'retry-after': '0' });
        res.end('{"message":"Forbidden"}');
        return true;
      },
    });
    const client = new ApiClient({ baseUrl: service.url, sleep: noSleep });
    expect((await client.fetchPage({ q: 'x', s: 1, p: 100 })).records).toHaveLength(3);
    expect(client.retries).toBe(2);
  });
});

describe('plan', () => {
  it("'basic' refuses a premium-only field before any request, and keeps pages to 25", async () => {
    service = await startFakeService({ records: makeRecords(60), maxPageSize: 25 });
    const client = new ApiClient({ baseUrl: service.url, plan: 'basic' });
    const err = (await client
      .fetchPage({ q: 'subject:Chemistry', s: 1, p: 10 })
      .catch((e: unknown) => e)) as ToolkitError;
    expect(err).toMatchObject({ code: 'plan-limit', details: { limit: 'query-field', plan: 'basic' } });
    expect(err.message).toBe(
      'the query field `subject:` (subject:Chemistry) needs a premium key; with a basic key use keyword: (`plan` basic: checked before any request)',
    );
    await expect(collect(harvest('"a phrase" AND (title:x OR doi:10.1/y)', { client }))).rejects.toMatchObject({
      code: 'plan-limit',
      message: expect.stringContaining('`title:`'),
    });
    expect(service.requests).toHaveLength(0);
    const warnings: string[] = [];
    const got = await collect(
      harvest('type:Journal "year:2015"', { client, pageSize: 100, onWarning: (w) => warnings.push(w) }),
    );
    expect(got).toHaveLength(60);
    expect(warnings).toEqual([
      'the meta-v2 endpoint gives a basic key at most 25 records a page: harvesting 25 a page instead of 100',
    ]);
    expect(new Set(service.requests.map((u) => u.searchParams.get('p')))).toEqual(new Set(['25']));
    // premium: every field
    expect(() =>
      new ApiClient({ baseUrl: service!.url, plan: 'premium' }).checkQuery('year:2015 sort:date'),
    ).not.toThrow();
  });

  it('the open-access endpoint pages 20 at a time and refuses more in one request', async () => {
    service = await startFakeService({ records: makeRecords(3) });
    const client = new ApiClient({ baseUrl: service.url, endpoint: 'openaccess' });
    expect(client.endpointUrl).toBe(`${service.url}/openaccess/json`);
    expect(client.maxPageSize).toBe(20);
    await expect(client.fetchPage({ q: 'x', s: 1, p: 25 })).rejects.toMatchObject({
      code: 'usage',
      message: 'page size 25 is out of range: 1 to 20 on the open-access endpoint',
    });
    expect(() => new ApiClient({ baseUrl: service!.url, endpoint: 'nope' as never })).toThrow(
      /`endpoint` "nope" is none of meta-v2, meta-v1, metadata-v1, openaccess/,
    );
  });
});

it('NO_DATA_404_BODY is the body the contract recognises', async () => {
  const { isNoDataBody } = await import('../../src/contract/statusBodies.js');
  expect(isNoDataBody(NO_DATA_404_BODY)).toBe(true);
  expect(isNoDataBody('{"message":"The requested URL was not found on this server"}')).toBe(false);
});
