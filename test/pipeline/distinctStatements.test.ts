// "N statements (M distinct; shared entities repeat per record)": M, counted by convert and export as they
// write (the statements about shared entities kept as keys), is the size of the graph a store makes of
// the output: an n3 Store of it, which holds each triple once.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, Store } from 'n3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { distinctNote } from '../../src/pipeline/ConvertStats.js';
import { exportRdf, type ExportOptions } from '../../src/export/exportRdf.js';
import { convertFiles } from '../../src/tasks/convertFiles.js';
import { makeRecords, startFakeService, type FakeService } from '../client/fakeService.js';
import { interrupted } from '../export/exportHarness.js';
import { runCli } from '../helpers/cli.js';
import { formatCount as n } from '../../src/cli/progress/format.js';

const dir = mkdtempSync(join(tmpdir(), 'distinct-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const SAMPLE = 'data/sample-catalogue.jsonl';

/** The quads a store holds of an N-Triples or N-Quads file (each once). */
function storeOf(path: string, format: 'N-Triples' | 'N-Quads' = 'N-Triples'): Store {
  return new Store(new Parser({ format }).parse(readFileSync(path, 'utf8')));
}

describe('distinct statements of convert', () => {
  it('of the sample catalogue: the size of the graph of the dump, fewer than the statements', async () => {
    const output = join(dir, 'sample.nt');
    const summary = await convertFiles({ inputs: [SAMPLE], output });
    const store = storeOf(output);
    expect(summary.statements).toBe(readFileSync(output, 'utf8').trim().split('\n').length);
    expect(summary.distinctStatements).toBe(store.size);
    expect(summary.distinctStatements).toBeLessThan(summary.statements); // the sample repeats its journals
  });

  it('the same with worker threads (the keys come from the workers), and of the dump converted again', async () => {
    const one = await convertFiles({ inputs: [SAMPLE], output: join(dir, 'one.ttl') });
    const two = await convertFiles({ inputs: [SAMPLE], output: join(dir, 'two.ttl'), jobs: 2 });
    expect(two.distinctStatements).toBe(one.distinctStatements);
    // an RDF input: its statements as they are, the repeats of shared entities' counted once
    const again = await convertFiles({ inputs: [join(dir, 'one.ttl')], output: join(dir, 'again.nt') });
    expect(again.statements).toBe(one.statements);
    expect(again.distinctStatements).toBe(storeOf(join(dir, 'again.nt')).size);
  });

  it('with a graph per record, every statement is a quad of its own', async () => {
    const output = join(dir, 'graphs.nq');
    const summary = await convertFiles({ inputs: [SAMPLE], output, graphPerRecord: true });
    expect(summary.distinctStatements).toBe(summary.statements);
    expect(storeOf(output, 'N-Quads').size).toBe(summary.statements);
  });

  it('the CLI says both counts, and --json has them', async () => {
    const r = await runCli(['convert', SAMPLE, '-o', join(dir, 'cli.nt'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { statements: number; distinctStatements: number };
    expect(json.distinctStatements).toBe(storeOf(join(dir, 'cli.nt')).size);
    expect(r.stderr).toContain(
      `statements ${json.statements} (${json.distinctStatements} distinct; shared entities repeat per record)`,
    );
  });
});

describe('distinct statements of export', () => {
  const base = (extra: Partial<ExportOptions>): ExportOptions => ({
    query: 'type:Journal',
    baseUrl: service!.url,
    apiKey: 'k',
    pageSize: 10,
    concurrency: 2,
    now: () => new Date('2026-01-02T03:04:05.000Z'),
    retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });

  it('exact for a run that was not resumed: the size of the graph of the dump', async () => {
    // every record names one journal and publisher: their statements repeat in each
    service = await startFakeService({ records: makeRecords(35) });
    const output = join(dir, 'export.nt');
    const { counts } = await exportRdf(base({ output }));
    expect(counts.distinctExact).toBe(true);
    expect(counts.distinctTriples).toBe(storeOf(output).size);
    expect(counts.distinctTriples).toBeLessThan(counts.triples);
  });

  it('after a resume, an upper bound (the keys of the statements before it are not kept), said "at most"', async () => {
    service = await startFakeService({ records: makeRecords(35) });
    const output = join(dir, 'resumed.nt');
    await interrupted(base({ output }), 2);
    appendFileSync(output + '.partial', ''); // the dump is still the partial file
    const { counts } = await exportRdf(base({ output, resume: true }));
    const size = storeOf(output).size;
    expect(counts.distinctExact).toBe(false);
    expect(counts.distinctTriples).toBeGreaterThanOrEqual(size);
    expect(counts.distinctTriples).toBeLessThan(counts.triples);
    expect(distinctNote(counts.triples, counts.distinctTriples, true)).toMatch(/^ \(at most \d+ distinct; /);
  });

  it('the CLI says both counts', async () => {
    service = await startFakeService({ records: makeRecords(25) });
    const r = await runCli(
      ['export', '-q', 'x', '--base-url', service.url, '--api-key', 'k', '-o', 'export-cli.nt', '--json'],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const { counts } = JSON.parse(r.stdout) as { counts: { triples: number; distinctTriples: number } };
    expect(counts.distinctTriples).toBe(storeOf(join(dir, 'export-cli.nt')).size);
    expect(r.stderr).toContain(
      `${n(counts.triples)} statements (${n(counts.distinctTriples)} distinct; shared entities repeat per record)`,
    );
  });
});
