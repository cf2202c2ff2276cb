import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { upsertDump, type UpsertDumpOptions } from '../../src/tasks/upsertDump.js';

const B = 'https://w3id.org/scholarly-rdf/';
const ENDPOINT = 'http://store.test/ds';
const g = (doi: string) => `${B}record/${doi}`;
const t = (doi: string, p: string, o: string) => `<https://doi.org/${doi}> <http://schema.org/${p}> "${o}" .`;
const nq = (doi: string, p: string, o: string) => `${t(doi, p, o).slice(0, -2)} <${g(doi)}> .`;

/**
 * A store behind a fake `fetch`, with Fuseki's URLs: graphs as sets of N-Triples lines; Graph Store PUT,
 * SPARQL Update of `DROP SILENT GRAPH <g>` and `INSERT DATA { GRAPH <g> { lines } }` (as upsert writes
 * them), and the per-graph COUNT. Records every request.
 */
class FakeStore {
  readonly graphs = new Map<string, Set<string>>();
  readonly requests: { method: string; path: string; body: string }[] = [];
  /** Triples of each later write left out (to provoke a count mismatch). */
  lose = 0;
  /** The answer to every request while set (status and body). */
  fault: { status: number; body: string; headers?: Record<string, string> } | undefined;

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const body =
      typeof init?.body === 'string'
        ? init.body
        : init?.body
          ? Buffer.from(init.body as Uint8Array).toString('utf8')
          : '';
    const method = init?.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, body });
    if (this.fault)
      return new Response(this.fault.body, { status: this.fault.status, headers: this.fault.headers ?? {} });
    if (method === 'PUT' && url.pathname === '/ds/data') {
      this.graphs.set(url.searchParams.get('graph')!, this.kept(body.split('\n')));
      return new Response(null, { status: 204 });
    }
    const form = new URLSearchParams(body);
    if (url.pathname === '/ds/update') {
      const update = form.get('update')!;
      for (const m of update.matchAll(/DROP SILENT GRAPH <([^>]+)>/g)) this.graphs.delete(m[1]!);
      for (const m of update.matchAll(/GRAPH <([^>]+)> \{\n([^}]*)\n\}/g))
        this.graphs.set(m[1]!, this.kept(m[2]!.split('\n')));
      return new Response('', { status: 200 });
    }
    if (url.pathname === '/ds/query') {
      const graphs = [...form.get('query')!.matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
      const bindings = graphs
        .filter((x) => this.graphs.get(x)?.size)
        .map((x) => ({
          g: { type: 'uri', value: x },
          n: { type: 'typed-literal', value: String(this.graphs.get(x)!.size) },
        }));
      return new Response(JSON.stringify({ head: { vars: ['g', 'n'] }, results: { bindings } }), { status: 200 });
    }
    return new Response('no', { status: 404 });
  };

  private kept(lines: string[]): Set<string> {
    const set = new Set(lines.filter((l) => l.trim() !== ''));
    for (const line of [...set].slice(0, this.lose)) set.delete(line);
    return set;
  }

  /** The graphs and their lines, sorted. */
  state(): Record<string, string[]> {
    return Object.fromEntries(
      [...this.graphs]
        .filter(([, l]) => l.size > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, l]) => [k, [...l].sort()]),
    );
  }
}

let dir: string;
let store: FakeStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'upsert-'));
  store = new FakeStore();
  // State A: three records; b has two authors, c is not in the delta.
  store.graphs.set(g('10.1/a'), new Set([t('10.1/a', 'name', 'Old title')]));
  store.graphs.set(g('10.1/b'), new Set([t('10.1/b', 'author', 'X'), t('10.1/b', 'author', 'Y')]));
  store.graphs.set(g('10.1/c'), new Set([t('10.1/c', 'name', 'C')]));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The delta: a's title corrected, b's author Y removed, d new. */
function writeDelta(name = 'delta.nq', extra: string[] = []): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      nq('10.1/a', 'name', 'New title'),
      nq('10.1/b', 'author', 'X'),
      nq('10.1/b', 'author', 'X'),
      nq('10.1/d', 'name', 'D'),
      ...extra,
      '',
    ].join('\n'),
  );
  return path;
}

function options(files: string[], more: Partial<UpsertDumpOptions> = {}): UpsertDumpOptions {
  return { files, cwd: dir, endpoint: ENDPOINT, fetch: store.fetch, retry: { retries: 0 }, ...more };
}

const NEW_STATE = {
  [g('10.1/a')]: [t('10.1/a', 'name', 'New title')],
  [g('10.1/b')]: [t('10.1/b', 'author', 'X')],
  [g('10.1/c')]: [t('10.1/c', 'name', 'C')],
  [g('10.1/d')]: [t('10.1/d', 'name', 'D')],
};

describe('upsertDump', () => {
  it('replaces each record graph of the delta (a lost author is lost in the store too), leaves the others, counts each batch', async () => {
    const summary = await upsertDump(options([writeDelta()], { batchGraphs: 2 }));
    expect(store.state()).toEqual(NEW_STATE);
    expect(summary).toMatchObject({
      method: 'put',
      graphs: 3,
      triples: 3,
      batches: 2,
      batchesSkipped: 0,
      requests: 3,
      countRequests: 2,
      counted: true,
      target: `${ENDPOINT}/data?graph=${encodeURIComponent(`${B}record/`)}`,
    });
    expect(store.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'POST', 'PUT', 'POST']);
    expect(JSON.parse(readFileSync(summary.statePath!, 'utf8'))).toMatchObject({
      chunksAcked: 2,
      triplesAcked: 3,
      complete: true,
    });
  });

  it('method update: one SPARQL Update a batch, DROP SILENT GRAPH of each graph then INSERT DATA', async () => {
    const summary = await upsertDump(options([writeDelta()], { method: 'update', batchGraphs: 2, checkCount: false }));
    expect(store.state()).toEqual(NEW_STATE);
    expect(summary).toMatchObject({ method: 'update', requests: 2, countRequests: 0, counted: false });
    expect(new URLSearchParams(store.requests[0]!.body).get('update')).toBe(
      `DROP SILENT GRAPH <${g('10.1/a')}> ;\nDROP SILENT GRAPH <${g('10.1/b')}> ;\nINSERT DATA {\nGRAPH <${g('10.1/a')}> {\n${t('10.1/a', 'name', 'New title')}\n}\nGRAPH <${g('10.1/b')}> {\n${t('10.1/b', 'author', 'X')}\n}\n}\n`,
    );
  });

  it('fails with count-mismatch naming the graph when the store holds other than the delta, and does not note the batch as done', async () => {
    store.lose = 1;
    const err = await upsertDump(options([writeDelta()], { batchGraphs: 2 })).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'count-mismatch',
      message: expect.stringContaining(
        `after batch 1, 2 of its 2 graphs do not hold the delta's triples: <${g('10.1/a')}> holds 0, 1 expected`,
      ),
    });
    expect(JSON.parse(readFileSync((err as ToolkitError).details['statePath'] as string, 'utf8'))).toMatchObject({
      chunksAcked: 0,
    });
  });

  it('resumed after an interruption, skips the batches done and ends with the same store', async () => {
    const delta = writeDelta();
    const controller = new AbortController();
    const stopped = await upsertDump(
      options([delta], {
        batchGraphs: 1,
        signal: controller.signal,
        onBatch: (e) => e.batch === 1 && controller.abort(),
      }),
    ).catch((e: unknown) => e);
    expect(stopped).toMatchObject({
      code: 'aborted',
      details: { statePath: expect.stringMatching(/delta\.nq\.[0-9a-f]{8}\.load-state\.json$/), progressSaved: true },
    });
    expect(store.graphs.get(g('10.1/d'))).toBeUndefined();
    store.requests.length = 0;
    const events: boolean[] = [];
    const summary = await upsertDump(
      options([delta], { batchGraphs: 1, resume: true, onBatch: (e) => events.push(e.skipped) }),
    );
    expect(events).toEqual([true, false, false]);
    expect(summary).toMatchObject({ batches: 3, batchesSkipped: 1, graphs: 3, graphsReplaced: 2, requests: 2 });
    expect(store.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
    expect(store.state()).toEqual(NEW_STATE);
  });

  it('refuses to resume an upsert of a changed delta', async () => {
    const delta = writeDelta();
    await upsertDump(options([delta], { batchGraphs: 1 }));
    writeDelta('delta.nq', [nq('10.1/e', 'name', 'E')]);
    await expect(upsertDump(options([delta], { batchGraphs: 1, resume: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('the input files'),
    });
  });

  it('refuses a quad in the default graph naming the file and line, before anything of its batch is sent', async () => {
    const path = join(dir, 'mixed.nq');
    writeFileSync(
      path,
      `# a delta\n${nq('10.1/a', 'name', 'New title')}\n\n${t('10.1/a', 'name', 'in the default graph')}\n`,
    );
    await expect(upsertDump(options(['mixed.nq']))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/^mixed\.nq line 4: the quad is in the default graph/),
    });
    expect(store.requests).toEqual([]);
  });

  it('never shows the password: not from the URL, not from an error body that echoes it', async () => {
    const password = 'S3cret-Passw0rd!';
    const inUrl = await upsertDump(
      options([writeDelta()], { endpoint: `http://admin:${password}@store.test/ds` }),
    ).catch((e: Error) => e);
    expect(inUrl).toMatchObject({ code: 'usage' });
    expect(String((inUrl as Error).message)).not.toContain(password);
    store.fault = {
      status: 400,
      body: `bad request from admin:${password} (${Buffer.from(`admin:${password}`).toString('base64')})`,
    };
    const echoed = await upsertDump(options([writeDelta()], { credentials: { user: 'admin', password } })).catch(
      (e: Error) => e,
    );
    expect(echoed).toMatchObject({ code: 'http-status' });
    expect(JSON.stringify({ m: (echoed as Error).message, d: (echoed as ToolkitError).details })).not.toMatch(
      /S3cret|UzNjcmV0/,
    );
  });
});

describe('upsertDump of JSON-LD', () => {
  it('reads the record graphs of a JSON-LD delta (a top-level @graph of named graphs, as convert writes it)', async () => {
    const node = (doi: string, name: string) => ({
      '@id': g(doi),
      '@graph': [{ '@id': `https://doi.org/${doi}`, 'schema:name': name }],
    });
    const doc = {
      '@context': { schema: 'http://schema.org/' },
      '@graph': [node('10.1/a', 'New title'), node('10.1/d', 'D')],
    };
    writeFileSync(join(dir, 'delta.jsonld'), JSON.stringify(doc));
    const summary = await upsertDump(options(['delta.jsonld']));
    expect(summary).toMatchObject({ graphs: 2, triples: 2 });
    expect(store.state()[g('10.1/a')]).toEqual([t('10.1/a', 'name', 'New title')]);
    expect(store.state()[g('10.1/d')]).toEqual([t('10.1/d', 'name', 'D')]);
  });
});
