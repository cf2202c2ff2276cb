/**
 * A client written against the real service must work against `serve`
 * unchanged: the recorded real responses (test/fixtures/server/, copied from
 * the project's shared fixtures) are compared with the answers of `serve` to
 * the same requests, on a catalogue holding the recorded records.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { startServer, type RunningServer } from '../../src/server/index.js';

const dir = fileURLToPath(new URL('../fixtures/server/', import.meta.url));
const text = (name: string) => readFileSync(dir + name, 'utf8');
const fixture = (name: string) => JSON.parse(text(name)) as Record<string, unknown>;

const KEY = '<API_KEY>';
const lastPage = fixture('meta-v1-2015-articles-last-page-s701-2records.json');
const beyond = text('meta-v1-2015-empty-page-beyond-total-s801.json');
const metabolomics = fixture('metadata-json-article-metabolomics-2017.json');
const visualMedia = fixture('metadata-json-2023-record-only-computational-visual-media.json');
const unauthorized = text('error-401-invalid-key.json');

/**
 * The shape of a JSON value: objects by their keys (recursively), arrays by
 * the shape of their elements, scalars by their type. Arrays of records are
 * compared element by element where both have elements.
 */
function expectSameShape(actual: unknown, recorded: unknown, path = '$'): void {
  if (Array.isArray(recorded)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    const a = actual as unknown[];
    if (recorded.length > 0 && a.length > 0) {
      for (let i = 0; i < Math.min(a.length, recorded.length); i++) expectSameShape(a[i], recorded[i], `${path}[${i}]`);
    }
    return;
  }
  if (recorded !== null && typeof recorded === 'object') {
    expect(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${path} is an object`).toBe(true);
    expect(Object.keys(actual as object), `keys of ${path}`).toEqual(Object.keys(recorded));
    for (const [k, v] of Object.entries(recorded))
      expectSameShape((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  expect(typeof actual, `type of ${path}`).toBe(typeof recorded);
}

let server: RunningServer;

beforeAll(async () => {
  // 700 generated records of 2015-09-08, then the two recorded ones: 702 matches of date:2015-09-08,
  // as in the recording; plus the two records of /metadata/json with the facet values the real service showed.
  const records: Record<string, unknown>[] = [];
  for (const r of generateRecords(700, 5, { catalogueFields: true })) {
    records.push({ ...r, publicationDate: '2015-09-08' });
  }
  for (const r of lastPage.records as Record<string, unknown>[]) records.push(r);
  const metabolomicsFacets = metabolomics.facets as { name: string; values: { value: string }[] }[];
  const facetValues = (name: string) => metabolomicsFacets.find((f) => f.name === name)!.values.map((v) => v.value);
  records.push({
    ...(metabolomics.records as Record<string, unknown>[])[0],
    _subjects: facetValues('subject'),
    _keywords: facetValues('keyword'),
    _countries: facetValues('country'),
  });
  records.push(visualMedia);
  server = await startServer({
    catalogue: records,
    apiKeys: [{ key: KEY, plan: 'premium' }],
    apiMessage: 'This JSON was provided by Springer Nature',
  });
});

afterAll(() => server.close());

async function get(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(server.url + path);
  return { status: res.status, body: await res.text() };
}

const key = encodeURIComponent(KEY);

describe('serve against recorded real responses', () => {
  it('/meta/v1/json?q=date:2015-09-08&s=701&p=100: a short last page shaped as recorded', async () => {
    const { status, body } = await get(
      `/meta/v1/json?q=${encodeURIComponent('date:2015-09-08')}&s=701&p=100&api_key=${key}`,
    );
    expect(status).toBe(200);
    const json = JSON.parse(body) as Record<string, unknown>;
    expectSameShape(json, lastPage);
    expect(json.result).toEqual(lastPage.result);
    expect(json.records).toEqual(lastPage.records);
    expect((json.facets as { name: string }[]).map((f) => f.name)).toEqual(
      (lastPage.facets as { name: string }[]).map((f) => f.name),
    );
    expect('nextPage' in json).toBe(false);
  });

  it('/meta/v1/json past the end (s=801) answers byte for byte as recorded', async () => {
    const { status, body } = await get(
      `/meta/v1/json?q=${encodeURIComponent('date:2015-09-08')}&s=801&p=100&api_key=${key}`,
    );
    expect(status).toBe(200);
    expect(body).toBe(beyond);
  });

  it('/metadata/json?q=doi:…&s=1&p=1 answers the recorded envelope (records, paging and facets)', async () => {
    const { status, body } = await get(
      `/metadata/json?q=${encodeURIComponent('doi:10.1007/s11306-017-1242-7')}&s=1&p=1&api_key=${key}`,
    );
    expect(status).toBe(200);
    const json = JSON.parse(body) as Record<string, unknown>;
    expectSameShape(json, metabolomics);
    expect(json).toEqual(metabolomics);
  });

  it('/metadata/json serves a record exactly as it is in the catalogue', async () => {
    const { body } = await get(
      `/metadata/json?q=${encodeURIComponent('doi:10.1007/s41095-022-0275-7')}&api_key=${key}`,
    );
    const json = JSON.parse(body) as { records: unknown[] };
    expect(json.records).toEqual([visualMedia]);
    expectSameShape(json.records[0], visualMedia);
  });

  it('answers a missing or wrong key with the recorded 401 body, byte for byte, on every endpoint', async () => {
    for (const path of ['/meta/v2/json', '/meta/v1/json', '/metadata/json', '/metadata/v1/articles']) {
      for (const query of ['?q=year:2015', '?q=year:2015&api_key=wrong', '?q=year:2015&api_key=']) {
        const { status, body } = await get(path + query);
        expect(status).toBe(401);
        expect(body).toBe(unauthorized);
      }
    }
  });
});
