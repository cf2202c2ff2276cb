/**
 * `serve` answers as the service does since 2026 (issue 31), by default: a
 * query with no hits is a 404 with the service's body, a basic key may not
 * use premium-only query fields, page sizes are per plan and endpoint, and
 * `/openaccess/json` lists the open-access records of the catalogue. With
 * `compat: '2024'` it answers as the recorded responses show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { Catalogue, startServer, type RunningServer } from '../../src/server/index.js';
import { BASIC_FIELDS, PREMIUM_FIELDS } from '../../src/contract/queryFields.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';

const BASIC = 'basic-key';
const PREMIUM = 'premium-key';
const NO_DATA = '{"status":"Fail","message":"No data was found for the given query."}';

let server: RunningServer;
let old: RunningServer;
let sample: RunningServer;
let catalogue: Catalogue;

beforeAll(async () => {
  catalogue = Catalogue.fromFile(sampleCataloguePath());
  server = await startServer({ catalogue, apiKeys: [BASIC, `${PREMIUM}:premium`] });
  old = await startServer({ catalogue, apiKeys: [BASIC, `${PREMIUM}:premium`], compat: '2024' });
  sample = await startServer({ catalogue });
});

afterAll(async () => {
  await Promise.all([server.close(), old.close(), sample.close()]);
});

async function get(
  base: string,
  path: string,
  q: string,
  extra: string,
  key: string,
): Promise<{ status: number; body: string; json: () => Record<string, any> }> {
  const res = await fetch(`${base}${path}?q=${encodeURIComponent(q)}&api_key=${key}${extra}`);
  const body = await res.text();
  return { status: res.status, body, json: () => JSON.parse(body) as Record<string, any> };
}

describe('a query with no hits', () => {
  it('is a 404 with the service body on /meta/v2/json, /metadata/json and /openaccess/json', async () => {
    for (const path of ['/meta/v2/json', '/metadata/json', '/openaccess/json']) {
      const r = await get(server.url, path, 'doi:10.9999/none', '', BASIC);
      expect([path, r.status, r.body]).toEqual([path, 404, NO_DATA]);
    }
  });

  it('past the end of a query with hits is still a 200 with no records (as recorded)', async () => {
    const r = await get(server.url, '/meta/v2/json', 'type:Journal', '&s=9999&p=10', BASIC);
    expect(r.status).toBe(200);
    expect(r.json().records).toEqual([]);
  });

  it("is a 200 with total '0' in compat 2024", async () => {
    const r = await get(old.url, '/meta/v2/json', 'doi:10.9999/none', '', BASIC);
    expect(r.status).toBe(200);
    expect(r.json().result[0].total).toBe('0');
  });
});

describe('plans', () => {
  it('a basic key is refused every premium-only field with a 403 "premium feature" naming it, and may use every basic one', async () => {
    for (const field of PREMIUM_FIELDS) {
      const r = await get(server.url, '/meta/v2/json', `type:Journal ${field}:x`, '', BASIC);
      expect([field, r.status]).toEqual([field, 403]);
      expect(r.json()).toMatchObject({
        status: 'Fail',
        message: expect.stringContaining(`premium feature is restricted: the query field '${field}'`),
      });
    }
    for (const field of BASIC_FIELDS) {
      const r = await get(server.url, '/meta/v2/json', `${field}:2015`, '', BASIC);
      expect([field, r.status]).not.toEqual([field, 403]);
    }
    // a phrase is no field
    expect((await get(server.url, '/meta/v2/json', '"year:2015" OR type:Journal', '', BASIC)).status).toBe(200);
  });

  it('a premium key may use them; in compat 2024 a basic key may too', async () => {
    expect((await get(server.url, '/meta/v2/json', 'year:2015', '', PREMIUM)).status).toBe(200);
    expect((await get(old.url, '/meta/v2/json', 'year:2015', '', BASIC)).status).toBe(200);
  });

  it('the sample key (no keys configured) is premium, so the README commands work unchanged', async () => {
    const r = await get(sample.url, '/meta/v2/json', 'year:2015', '&p=100', 'sample');
    expect(r.status).toBe(200);
  });

  it('page sizes per plan and endpoint: 25 and 100, 20 on the open-access endpoint for both', async () => {
    for (const [path, key, ok, refused] of [
      ['/meta/v2/json', BASIC, 25, 26],
      ['/meta/v2/json', PREMIUM, 100, 101],
      ['/openaccess/json', BASIC, 20, 21],
      ['/openaccess/json', PREMIUM, 20, 21],
    ] as const) {
      expect((await get(server.url, path, 'type:Journal', `&p=${ok}`, key)).status).toBe(200);
      const r = await get(server.url, path, 'type:Journal', `&p=${refused}`, key);
      expect([path, key, r.status]).toEqual([path, key, 403]);
      expect(r.body).toContain('premium feature');
    }
    expect(ENDPOINTS.openaccess.pageSizes).toEqual({ basic: 20, premium: 20 });
  });
});

describe('/openaccess/json', () => {
  it('lists the open-access records of the catalogue in the v2 envelope, paged like the others', async () => {
    const all = (await get(server.url, '/meta/v2/json', 'type:Journal', '&p=100', PREMIUM)).json();
    const open = (await get(server.url, '/openaccess/json', 'type:Journal', '&p=20', PREMIUM)).json();
    expect(Object.keys(open)).toEqual(['apiMessage', 'query', 'apiKey', 'nextPage', 'result', 'records', 'facets']);
    expect(open.nextPage).toMatch(/^\/openaccess\/json\?q=type%3AJournal&s=21&p=20&/);
    // the catalogue spells the flag as the service does, `openaccess` or `openAccess`
    const flag = (r: Record<string, string>) => r.openaccess ?? r.openAccess;
    expect(open.records.every((r: Record<string, string>) => flag(r) === 'true')).toBe(true);
    const expected = all.records.filter((r: Record<string, string>) => flag(r) === 'true').length;
    expect(Number(open.result[0].total)).toBeGreaterThanOrEqual(expected);
    expect(Number(open.result[0].total)).toBeLessThan(Number(all.result[0].total));
    const closed = all.records.find((r: Record<string, string>) => flag(r) === 'false').doi as string;
    expect((await get(server.url, '/openaccess/json', `doi:${closed}`, '', BASIC)).status).toBe(404);
  });
});

describe('/openaccess/jats', () => {
  it('lists the same records as /openaccess/json as JATS documents, markup escaped; no hits is the 404', async () => {
    const json = (await get(server.url, '/openaccess/json', 'type:Journal OR type:Book', '&p=20&s=21', BASIC)).json();
    const res = await fetch(
      `${server.url}/openaccess/jats?q=${encodeURIComponent('type:Journal OR type:Book')}&p=20&s=21&api_key=${BASIC}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?><response><apiMessage>/);
    expect(xml).toContain(
      `<result><total>${json.result[0].total}</total><start>21</start><pageLength>20</pageLength><recordsDisplayed>${json.records.length}</recordsDisplayed></result>`,
    );
    const dois = [...xml.matchAll(/<(?:article-id pub-id-type|book-part-id book-part-id-type)="doi">([^<]+)</g)].map(
      (m) => m[1],
    );
    expect(dois).toEqual(json.records.map((r: { doi: string }) => r.doi));
    expect((xml.match(/<article /g) ?? []).length + (xml.match(/<book-part-wrapper[ >]/g) ?? []).length).toBe(
      json.records.length,
    );
    const odd = await (
      await fetch(`${server.url}/openaccess/jats?q=${encodeURIComponent('type:Journal "a<b&c"')}&api_key=${BASIC}`)
    ).text();
    expect(odd).toBe(NO_DATA);
    const echoed = await (
      await fetch(
        `${server.url}/openaccess/jats?q=${encodeURIComponent('type:Journal OR "a<b&c"')}&p=1&api_key=${BASIC}`,
      )
    ).text();
    expect(echoed).toContain('<query>type:Journal OR "a&lt;b&amp;c"</query>');
  });
});
