/**
 * Walks the service specification (seed) section by section against `serve`
 * over the bundled sample catalogue.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from 'n3';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { Catalogue, startServer, type RunningServer } from '../../src/server/index.js';
import { tempDir } from '../helpers/tempDir.js';

const BASIC = 'basic-key';
const PREMIUM = 'premium-key';

let server: RunningServer;
let catalogue: Catalogue;
let clock = 0;
let limited: RunningServer;

beforeAll(async () => {
  catalogue = Catalogue.fromFile(sampleCataloguePath());
  // The specification (seed) is of the service until 2024: every field open to basic keys, a query with no hits a 200
  // with total 0. The 2026 answers (the default) are walked in service2026.test.ts.
  server = await startServer({ catalogue, apiKeys: [BASIC, `${PREMIUM}:premium`], compat: '2024' });
  limited = await startServer({
    catalogue,
    apiKeys: ['slow'],
    rate: 2,
    retryAfter: 1,
    now: () => clock,
    compat: '2024',
  });
});

afterAll(async () => {
  await server.close();
  await limited.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: string;
  json: () => Record<string, any>;
}

async function get(path: string, init: RequestInit = {}, base = server.url): Promise<Reply> {
  const res = await fetch(base + path, init);
  const body = await res.text();
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body) as Record<string, any> };
}

const enc = encodeURIComponent;
const v2 = (q: string, extra = '', key = BASIC) => `/meta/v2/json?q=${enc(q)}&api_key=${enc(key)}${extra}`;

function allStrings(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(allStrings);
  if (value !== null && typeof value === 'object') return Object.values(value).every(allStrings);
  return typeof value === 'string';
}

describe('§2.1 response envelope (/meta/v2/json)', () => {
  it('has apiMessage, query, apiKey, nextPage, result, records and facets, every value a string', async () => {
    const r = await get(v2('year:2015', '&s=1&p=5'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['apiMessage', 'query', 'apiKey', 'nextPage', 'result', 'records', 'facets']);
    expect(body.apiMessage).toMatch(/provided by/);
    expect(body.apiKey).toBe(BASIC);
    expect(allStrings(body.result)).toBe(true);
    expect(allStrings(body.facets)).toBe(true);
    expect(body.result).toHaveLength(1);
  });

  it('echoes the query decoded', async () => {
    const q = 'subject:"Life Sciences" AND (year:2015 OR year:2016) café';
    const body = (await get(v2(q))).json();
    expect(body.query).toBe(q);
    expect((await get(`/meta/v2/json?q=year%3A2015+OR+title%3Asurvey&api_key=${BASIC}`)).json().query).toBe(
      'year:2015 OR title:survey',
    );
  });
});

describe('§2.2 paging summary and §4.1 nextPage arithmetic', () => {
  it('s=1, p=20 gives start 1, pageLength 20 and a nextPage with s=21 carrying q, p, api_key and callback', async () => {
    const body = (await get(v2('type:Journal', '&s=1&p=20'))).json();
    const total = Number(body.result[0].total);
    expect(total).toBeGreaterThan(40);
    expect(body.result[0]).toEqual({ total: String(total), start: '1', pageLength: '20', recordsDisplayed: '20' });
    expect(body.nextPage).toBe(`/meta/v2/json?q=type%3AJournal&s=21&p=20&api_key=${BASIC}&callback=`);
  });

  it('following nextPage walks every match exactly once and stops on the last page', async () => {
    let path: string | undefined = v2('openaccess:true', '&s=1&p=7');
    const seen: string[] = [];
    let total = 0;
    let pages = 0;
    while (path) {
      const body = (await get(path)).json();
      total = Number(body.result[0].total);
      expect(Number(body.result[0].recordsDisplayed)).toBe(body.records.length);
      seen.push(...body.records.map((r: { doi: string }) => r.doi));
      path = body.nextPage;
      pages++;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 7));
  });

  it('percent-encodes the parts of nextPage', async () => {
    const q = 'title:"a & b" OR doi:10.1007/x=1';
    const body = (await get(`/meta/v2/json?q=${enc('type:Journal OR ' + q)}&p=2&api_key=${PREMIUM}&callback=my.cb`))
      .body;
    const json = JSON.parse(body.slice('my.cb('.length, -1));
    const next = new URL(json.nextPage, 'http://x');
    expect(next.searchParams.get('q')).toBe('type:Journal OR ' + q);
    expect(next.searchParams.get('s')).toBe('3');
    expect(next.searchParams.get('api_key')).toBe(PREMIUM);
    expect(next.searchParams.get('callback')).toBe('my.cb');
  });

  it('past the end answers 200 with total "0", no records and facets with empty values', async () => {
    const body = (await get(v2('year:2015', '&s=9999&p=10'))).json();
    expect(body.result[0]).toEqual({ total: '0', start: '9999', pageLength: '10', recordsDisplayed: '0' });
    expect(body.records).toEqual([]);
    expect(body.nextPage).toBeUndefined();
    expect(body.facets.map((f: { values: unknown[] }) => f.values)).toEqual([[], [], [], [], [], []]);
  });

  it('defaults s to 1 and p to 10', async () => {
    const body = (await get(v2('type:Journal'))).json();
    expect(body.result[0].start).toBe('1');
    expect(body.result[0].pageLength).toBe('10');
    expect(body.records).toHaveLength(10);
  });
});

describe('§2.3 records', () => {
  it('serves the catalogue records as they are, without catalogue-only keys', async () => {
    const body = (await get(v2('type:Journal', '&p=25'))).json();
    for (const record of body.records) {
      expect(record).toEqual(catalogue.record(catalogueIdOf(record.doi)));
      expect(Object.keys(record).some((k) => k.startsWith('_'))).toBe(false);
      expect(record.identifier).toBe(`doi:${record.doi}`);
    }
  });
});

function catalogueIdOf(doi: string): number {
  for (let i = 0; i < catalogue.size; i++) if (catalogue.record(i).doi === doi) return i;
  throw new Error(`no record ${doi}`);
}

describe('§2.4 facets', () => {
  it('has subject, keyword, pub, year, country, type with at most 20 values, counted over all matches', async () => {
    const body = (await get(v2('type:Journal OR type:Book', '&p=1'))).json();
    expect(body.facets.map((f: { name: string }) => f.name)).toEqual([
      'subject',
      'keyword',
      'pub',
      'year',
      'country',
      'type',
    ]);
    for (const f of body.facets) {
      expect(f.values.length).toBeLessThanOrEqual(20);
      const counts = f.values.map((v: { count: string }) => Number(v.count));
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    }
    const type = body.facets.find((f: { name: string }) => f.name === 'type').values;
    const total = type.reduce((n: number, v: { count: string }) => n + Number(v.count), 0);
    expect(total).toBe(Number(body.result[0].total));
    const year = (await get(v2('year:2015', '&p=1'))).json().facets.find((f: { name: string }) => f.name === 'year');
    expect(year.values).toEqual([{ value: '2015', count: (await get(v2('year:2015'))).json().result[0].total }]);
  });

  it('are the same on every page', async () => {
    const first = (await get(v2('openaccess:false', '&s=1&p=5'))).json().facets;
    const third = (await get(v2('openaccess:false', '&s=11&p=5'))).json().facets;
    expect(third).toEqual(first);
  });

  it('count a record once per value even with duplicate subjects', async () => {
    const records = [...generateRecords(1, 1)].map((r) => ({ ...r, subjects: ['A', 'A', 'B'], disciplines: [] }));
    const s = await startServer({ catalogue: records, apiKeys: ['k'], compat: '2024' });
    try {
      const body = (await get(`/meta/v2/json?q=subject:A&api_key=k`, {}, s.url)).json();
      expect(body.facets[0].values).toEqual([
        { value: 'A', count: '1' },
        { value: 'B', count: '1' },
      ]);
    } finally {
      await s.close();
    }
  });
});

describe('§2.5 and §4.2 the v1 family', () => {
  it('/metadata/v1/articles answers apiMessage, query, result and records of title, doi, abstract, publicationDate, journalTitle', async () => {
    const doi = catalogue.record(3).doi as string;
    const r = await get(`/metadata/v1/articles?q=${enc(`doi=${doi}`)}&api_key=${BASIC}`);
    expect(r.status).toBe(200);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['apiMessage', 'query', 'result', 'records']);
    expect(body.query).toBe(`doi=${doi}`);
    expect(body.records).toHaveLength(1);
    expect(Object.keys(body.records[0])).toEqual(['title', 'doi', 'abstract', 'publicationDate', 'journalTitle']);
    expect(body.records[0].doi).toBe(doi);
    expect(allStrings(body)).toBe(true);
  });

  it('/meta/v1/json has the recorded v1 envelope (no apiMessage, no recordsDisplayed) and accepts doi=', async () => {
    const doi = catalogue.record(5).doi as string;
    const body = (await get(`/meta/v1/json?q=${enc(`doi=${doi}`)}&api_key=${BASIC}`)).json();
    expect(Object.keys(body)).toEqual(['query', 'apiKey', 'result', 'records', 'facets']);
    expect(Object.keys(body.result[0])).toEqual(['total', 'start', 'pageLength']);
    expect(body.records[0].doi).toBe(doi);
  });

  it('abstract objects become text on /metadata/v1/articles', async () => {
    const s = await startServer({
      catalogue: [
        { doi: '10.1/x', title: 'T', abstract: { h1: 'Abstract', p: ['One.', 'Two.'] }, publicationName: 'J' },
      ],
      apiKeys: ['k'],
    });
    try {
      const body = (await get(`/metadata/v1/articles?q=doi%3D10.1%2Fx&api_key=k`, {}, s.url)).json();
      expect(body.records[0]).toEqual({
        title: 'T',
        doi: '10.1/x',
        abstract: 'Abstract One. Two.',
        publicationDate: '',
        journalTitle: 'J',
      });
    } finally {
      await s.close();
    }
  });

  it('doi= is not accepted on the v2 family (a bare word there)', async () => {
    const doi = catalogue.record(3).doi as string;
    const body = (await get(v2(`doi=${doi}`))).json();
    expect(body.result[0].total).not.toBe('1');
  });
});

describe('§4.3 vocabulary endpoint', () => {
  const cases: [string, string][] = [
    ['application/ld+json', 'application/ld+json'],
    ['application/n-triples', 'application/n-triples'],
    ['text/turtle', 'text/turtle'],
    ['application/rdf+xml', 'application/rdf+xml'],
    ['*/*', 'application/ld+json'],
    ['text/*', 'text/turtle'],
    ['text/turtle;q=0.5, application/rdf+xml;q=0.9', 'application/rdf+xml'],
    ['application/ld+json;q=0, */*;q=0.1', 'application/n-triples'],
    ['', 'application/ld+json'],
  ];
  for (const [accept, expected] of cases) {
    it(`Accept: '${accept}' gives ${expected}, with Vary: Accept`, async () => {
      const r = await get('/vocab/pagination', accept ? { headers: { accept } } : {});
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(expected);
      expect(r.headers.get('vary')).toBe('Accept');
      expect(r.body.length).toBeGreaterThan(100);
    });
  }

  it('Turtle and N-Triples carry the 10 triples of §2.6', async () => {
    for (const accept of ['text/turtle', 'application/n-triples']) {
      const r = await get('/vocab/pagination', { headers: { accept } });
      const quads = new Parser({ format: accept }).parse(r.body);
      expect(quads).toHaveLength(10);
    }
  });

  it('406 lists the available types for an Accept it cannot satisfy', async () => {
    const r = await get('/vocab/pagination', { headers: { accept: 'image/png, text/html' } });
    expect(r.status).toBe(406);
    expect(r.headers.get('vary')).toBe('Accept');
    expect(r.json().available).toEqual([
      'application/ld+json',
      'application/n-triples',
      'text/turtle',
      'application/rdf+xml',
    ]);
  });

  it('needs no key, answers 404 for unknown terms, and reads the directory at request time under a configurable path', async () => {
    expect((await get('/vocab/nonexistent')).status).toBe(404);
    expect((await get('/vocab/..%2Fpackage')).status).toBe(404);
    const dir = tempDir('vocab-');
    const s = await startServer({ catalogue, vocabDir: dir, vocabPath: '/terms' });
    try {
      expect((await get('/terms/pages', {}, s.url)).status).toBe(404);
      writeFileSync(join(dir, 'pages.ttl'), '<a:b> <a:c> <a:d> .\n');
      const r = await get('/terms/pages', { headers: { accept: 'application/ld+json, text/turtle;q=0.2' } }, s.url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/turtle');
      expect((await get('/vocab/pagination', {}, s.url)).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('§5 authentication and plans', () => {
  it('echoes the key in apiKey and nextPage', async () => {
    const body = (await get(v2('type:Journal', '&p=2', PREMIUM))).json();
    expect(body.apiKey).toBe(PREMIUM);
    expect(body.nextPage).toContain(`api_key=${PREMIUM}`);
  });

  it('403 "premium feature" with status Fail for p beyond the plan (25 basic, 100 premium)', async () => {
    const basic = await get(v2('year:2015', '&p=26'));
    expect(basic.status).toBe(403);
    expect(basic.json().status).toBe('Fail');
    expect(basic.json().message).toContain('premium feature');
    expect((await get(v2('year:2015', '&p=25'))).status).toBe(200);
    expect((await get(v2('year:2015', '&p=100', PREMIUM))).status).toBe(200);
    expect((await get(v2('year:2015', '&p=101', PREMIUM))).status).toBe(403);
  });

  it('accepts the key sample (premium) when no key is configured', async () => {
    const s = await startServer({ catalogue });
    try {
      expect((await get(`/meta/v2/json?q=year:2015&p=100&api_key=sample`, {}, s.url)).status).toBe(200);
      expect((await get(`/meta/v2/json?q=year:2015&api_key=other`, {}, s.url)).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('reads keys from a keys file', async () => {
    const file = join(tempDir('keys-'), 'keys.txt');
    writeFileSync(file, '# keys\nalpha\n\nbeta:premium\n');
    const s = await startServer({ catalogue, keysFile: file, compat: '2024' });
    try {
      expect((await get(`/meta/v2/json?q=x&p=50&api_key=alpha`, {}, s.url)).status).toBe(403);
      expect((await get(`/meta/v2/json?q=x&p=50&api_key=beta`, {}, s.url)).status).toBe(200);
      expect((await get(`/meta/v2/json?q=x&api_key=sample`, {}, s.url)).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('§7 errors and §8 limits (as the real service answers)', () => {
  it("400 Missing required query parameter: 'q'", async () => {
    for (const path of [
      `/meta/v2/json?api_key=${BASIC}`,
      `/meta/v2/json?q=&api_key=${BASIC}`,
      `/metadata/v1/articles?q=%20&api_key=${BASIC}`,
    ]) {
      const r = await get(path);
      expect(r.status).toBe(400);
      expect(r.json().message).toBe("Missing required query parameter: 'q'");
    }
  });

  it('400 Invalid parameters found for negative, zero or non-integer s and p', async () => {
    for (const extra of ['&s=-1', '&p=-5', '&s=1.5', '&p=abc', '&s=0', '&p=0', '&s=', '&p=1e3']) {
      const r = await get(v2('year:2015', extra));
      expect(r.status, extra).toBe(400);
      expect(r.json()).toMatchObject({ status: 'Fail', message: 'Invalid parameters found' });
    }
  });

  it('400 for a query it cannot parse, saying where', async () => {
    const cases: [string, RegExp][] = [
      ['(year:2015', /'\(' is never closed at position 1/],
      ['year:2015)', /unexpected '\)' at position 10/],
      ['year:2015 AND', /end of query.* at position 14/],
      ['foo:bar', /unknown field 'foo'.* at position 1/],
      ['title:"unterminated', /unterminated.* at position 7/],
      ['year:15', /year needs four digits.* at position 6/],
      ['datefrom:2015-13', /datefrom needs a date|at position/],
    ];
    for (const [q, message] of cases) {
      const r = await get(v2(q));
      expect(r.status, q).toBe(400);
      expect(r.json().message, q).toMatch(message);
    }
  });

  it('400 for bad percent-encoding, too long and too deeply nested queries', async () => {
    expect((await get(`/meta/v2/json?q=%E0%A4&api_key=${BASIC}`)).status).toBe(400);
    expect((await get(`/meta/v2/json?q=%zz&api_key=${BASIC}`)).json().message).toBe('Invalid parameters found');
    expect((await get(v2('a '.repeat(1500)))).status).toBe(400);
    expect((await get(v2('('.repeat(30) + 'a' + ')'.repeat(30)))).json().message).toMatch(/nesting deeper/);
    expect((await get(v2('NOT '.repeat(30) + 'a'))).status).toBe(400);
  });

  it('404 JSON for unknown paths, 405 JSON with Allow for other methods', async () => {
    const notFound = await get('/meta/v3/json?q=x');
    expect(notFound.status).toBe(404);
    expect(notFound.json().status).toBe('Fail');
    const post = await get(v2('year:2015'), { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.json().status).toBe('Fail');
    expect((await get('/vocab/pagination', { method: 'DELETE' })).status).toBe(405);
  });

  it('HEAD answers the headers of GET without a body', async () => {
    const head = await fetch(server.url + v2('year:2015'), { method: 'HEAD' });
    const getRes = await get(v2('year:2015'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getRes.body)));
    expect(await head.text()).toBe('');
  });

  it('429 with Retry-After beyond the per-key rate, and again 200 once the bucket refills', async () => {
    clock = 0;
    const path = `/meta/v2/json?q=year:2015&api_key=slow`;
    expect((await get(path, {}, limited.url)).status).toBe(200);
    expect((await get(path, {}, limited.url)).status).toBe(200);
    const over = await get(path, {}, limited.url);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    clock = 600;
    expect((await get(path, {}, limited.url)).status).toBe(200);
  });
});

describe('JSONP', () => {
  it('wraps the JSON in the callback as application/javascript', async () => {
    const r = await get(v2('year:2015', '&p=2&callback=handle_1'));
    expect(r.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(r.body.startsWith('handle_1({')).toBe(true);
    expect(r.body.endsWith('})')).toBe(true);
    const json = JSON.parse(r.body.slice('handle_1('.length, -1));
    expect(json.nextPage).toContain('callback=handle_1');
  });

  it('refuses a callback that is not an identifier', async () => {
    const r = await get(v2('year:2015', `&callback=${enc('alert(1);x')}`));
    expect(r.status).toBe(400);
  });
});

describe('paths as front ends read them', () => {
  it('treats repeated slashes as one (//meta//v2/json answers as /meta/v2/json)', async () => {
    const plain = await get(v2('type:Journal', '&p=3'));
    const doubled = await get(v2('type:Journal', '&p=3').replace('/meta/v2/json', '//meta//v2///json'));
    expect(doubled.status).toBe(200);
    expect(doubled.body).toBe(plain.body);
  });
});
