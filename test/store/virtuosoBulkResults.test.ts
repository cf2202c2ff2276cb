import { describe, expect, it } from 'vitest';
import {
  bulkFileResults,
  bulkProgressOf,
  countMismatchError,
  failedFilesError,
  type BulkFile,
} from '../../src/store/virtuosoBulkResults.js';

const files: BulkFile[] = [
  { path: '/here/a.nt', serverPath: '/srv/a.nt', bytes: 100, shard: undefined },
  { path: '/here/b.nt.gz', serverPath: '/srv/b.nt.gz', bytes: 50, shard: undefined },
  { path: '/here/c.nt', serverPath: '/srv/c.nt', bytes: 10, shard: undefined },
];
const syntax = '37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line 2: syntax error';

describe('bulkProgressOf', () => {
  it('counts loaded, failed and loading files, and the bytes of those done, from load_list', () => {
    const rows = [
      { file: '/srv/a.nt', state: 2, error: null },
      { file: '/srv/b.nt.gz', state: 2, error: syntax },
      { file: '/srv/c.nt', state: 1, error: null },
      { file: '/srv/other.nt', state: 2, error: null },
    ];
    expect(bulkProgressOf(files, rows, 12)).toEqual({
      filesTotal: 3,
      filesLoaded: 1,
      filesFailed: 1,
      filesLoading: 1,
      bytesDone: 150,
      totalBytes: 160,
      elapsedMs: 12,
    });
  });

  it('the total is unknown (null) when a file is only on the server', () => {
    expect(
      bulkProgressOf([...files, { path: '/x', serverPath: '/srv/x', bytes: undefined, shard: undefined }], [], 0)
        .totalBytes,
    ).toBeNull();
  });
});

describe('bulkFileResults', () => {
  it("loaded, failed with Virtuoso's error, or not loaded (still waiting, or gone from load_list)", () => {
    const results = bulkFileResults(files, [
      { file: '/srv/a.nt', state: 2, error: null },
      { file: '/srv/b.nt.gz', state: 2, error: syntax },
      { file: '/srv/c.nt', state: 0, error: null },
    ]);
    expect(results.map((r) => r.state)).toEqual(['loaded', 'failed', 'not-loaded']);
    expect(results[1]).toEqual({ file: '/here/b.nt.gz', serverPath: '/srv/b.nt.gz', state: 'failed', error: syntax });
    expect(bulkFileResults(files.slice(0, 1), [])[0]!.error).toContain('no longer in DB.DBA.load_list');
  });
});

describe('failedFilesError', () => {
  it("is a parse error naming each failed file with Virtuoso's message, saying the others were loaded", () => {
    const failed = [{ file: '/here/b.nt.gz', serverPath: '/srv/b.nt.gz', state: 'failed' as const, error: syntax }];
    const err = failedFilesError(failed, { files: [1, 2, 3], count: 99, graph: 'https://ex.org/g' });
    expect(err.code).toBe('parse');
    expect(err.message).toContain(
      `1 of 3 files were not loaded into <https://ex.org/g> (the others were; the graph holds 99 triples): /here/b.nt.gz: ${syntax}`,
    );
    expect(err.details['failures']).toEqual([{ file: '/here/b.nt.gz', state: 'failed', error: syntax }]);
  });
});

describe('countMismatchError', () => {
  const base = { graph: 'https://ex.org/g', countBefore: 0 };

  it('none when the count is in the range, or when there is no range (no manifest)', () => {
    expect(countMismatchError({ ...base, count: 42, expected: { min: 42, max: 42, exact: true } })).toBeUndefined();
    expect(countMismatchError({ ...base, count: 40, expected: { min: 33, max: 42, exact: false } })).toBeUndefined();
    expect(countMismatchError({ ...base, count: 1, expected: undefined })).toBeUndefined();
  });

  it('count-mismatch naming the graph, the count and what was expected, and why it may be', () => {
    const fewer = countMismatchError({ ...base, count: 30, expected: { min: 42, max: 42, exact: true } })!;
    expect(fewer.code).toBe('count-mismatch');
    expect(fewer.message).toContain('the graph <https://ex.org/g> holds 30 triples, 42 expected');
    expect(fewer.message).toContain('the manifest gives no sharedTriples');
    const more = countMismatchError({ ...base, count: 50, expected: { min: 33, max: 42, exact: false } })!;
    expect(more.message).toContain('33 to 42 expected');
    expect(more.message).toContain('something else wrote to the graph');
  });
});
