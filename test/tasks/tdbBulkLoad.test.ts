/**
 * tdbBulkLoad against fake Jena tools (shell scripts named as Jena's bin/ has them, a "database" that is a
 * file of lines): the files given to the loader, progress from its log, the count against the manifest,
 * a file the loader cannot read, the manifest's sizes. The real Jena 5.6: test/integration/fusekiBulk.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { tdbBulkLoad, type TdbBulkLoadOptions } from '../../src/tasks/tdbBulkLoad.js';

const dir = mkdtempSync(join(tmpdir(), 'tdb-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bin = join(dir, 'bin');
mkdirSync(bin);
// tdb2.tdbloader --loc L --graph=G FILES…: appends each file's lines to L/data, logging as Jena does; a file with BROKEN fails.
writeFileSync(
  join(bin, 'tdb2.tdbloader'),
  `#!/bin/sh
loc=$2; shift 3
mkdir -p "$loc"; echo "$*" > "$loc/args"
for f in "$@"; do
  if grep -q BROKEN "$f"; then echo "12:00:00 ERROR riot            :: [line: 2, col: 1 ] Broken token (newline in string)"; echo "org.apache.jena.riot.RiotException: [line: 2, col: 1 ]" >&2; exit 1; fi
  echo "12:00:00 INFO  loader          ::   End file: $(basename "$f") (triples/quads = $(wc -l < "$f"))"
done
# one transaction: the data only when every file was read
for f in "$@"; do cat "$f" >> "$loc/data"; done
`,
  { mode: 0o755 },
);
writeFileSync(
  join(bin, 'tdb2.tdbquery'),
  '#!/bin/sh\nprintf "n\\n%s\\n" "$(sort -u "$2/data" 2>/dev/null | wc -l)"\n',
  { mode: 0o755 },
);
writeFileSync(join(bin, 'tdb2.tdbupdate'), '#!/bin/sh\n: > "$2/data"\necho "$3" > "$2/update"\n', { mode: 0o755 });

let n = 0;
/** Shards of `lines` and their manifest, in a folder of its own. */
function shards(parts: string[][], shared?: number[]): { folder: string; manifest: string; files: string[] } {
  const folder = join(dir, `case${++n}`);
  mkdirSync(folder);
  const entries = parts.map((lines, i) => {
    const file = `d.${i + 1}.nt`;
    const text = lines.map((l) => `${l}\n`).join('');
    writeFileSync(join(folder, file), text);
    return {
      file,
      triples: lines.length,
      bytes: Buffer.byteLength(text),
      ...(shared ? { sharedTriples: shared[i] } : {}),
    };
  });
  const manifest = join(folder, 'd.manifest.json');
  writeFileSync(manifest, JSON.stringify({ shards: entries }));
  return { folder, manifest, files: entries.map((e) => join(folder, e.file)) };
}

const t = (i: number) => `<https://ex.org/s${i}> <https://ex.org/p> "${i}" .`;
const options = (o: Partial<TdbBulkLoadOptions>): TdbBulkLoadOptions => ({
  graph: 'https://ex.org/g',
  location: 'db',
  tdbloader: join(bin, 'tdb2.tdbloader'),
  ...o,
});

describe('tdbBulkLoad', () => {
  it("loads the manifest's shards into the graph, reports each file done, and checks the count", async () => {
    const s = shards([[t(1), t(2)], [t(3)], [t(4), t(5)]]);
    const progress: number[] = [];
    const summary = await tdbBulkLoad(
      options({ manifest: s.manifest, cwd: s.folder, onProgress: (p) => progress.push(p.filesLoaded) }),
    );
    expect(summary).toMatchObject({
      graph: 'https://ex.org/g',
      location: join(s.folder, 'db'),
      files: 3,
      tuples: 5,
      countBefore: 0,
      count: 5,
      expected: { min: 5, max: 5, exact: true },
    });
    expect(progress).toEqual([1, 2, 3, 3]);
    expect(readFileSync(join(s.folder, 'db', 'args'), 'utf8').trim()).toBe(s.files.join(' '));
  });

  it("a count below the manifest's range: count-mismatch carrying the summary; with replace the graph is emptied first", async () => {
    const s = shards([
      [t(1), t(2)],
      [t(2), t(3)],
    ]);
    const err = await tdbBulkLoad(options({ manifest: s.manifest, cwd: s.folder })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect(err).toMatchObject({
      code: 'count-mismatch',
      details: { summary: { count: 3, expected: { min: 4, max: 4 } } },
    });
    // A second load adds to the database: the triples already there count once.
    const again = await tdbBulkLoad(options({ files: s.files, cwd: s.folder }));
    expect(again).toMatchObject({ countBefore: 3, count: 3, expected: undefined });
    const replaced = await tdbBulkLoad(options({ files: s.files, cwd: s.folder, replace: true }));
    expect(replaced).toMatchObject({ countBefore: 0, count: 3 });
    expect(readFileSync(join(s.folder, 'db', 'update'), 'utf8').trim()).toBe('DROP SILENT GRAPH <https://ex.org/g>');
    // sharedTriples in the manifest allow the repeats.
    const withShared = shards(
      [
        [t(1), t(2)],
        [t(2), t(3)],
      ],
      [1, 1],
    );
    expect(await tdbBulkLoad(options({ manifest: withShared.manifest, cwd: withShared.folder }))).toMatchObject({
      count: 3,
      expected: { min: 3, max: 4, exact: false },
    });
  });

  it("a file the loader cannot read: parse naming it with Jena's message", async () => {
    const s = shards([[t(1)], ['BROKEN'], [t(3)]]);
    const err = await tdbBulkLoad(options({ files: s.files, cwd: s.folder })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'parse', details: { file: s.files[1] } });
    expect((err as Error).message).toBe(
      `${s.files[1]}: Jena's loader could not read it: [line: 2, col: 1 ] Broken token (newline in string); nothing of this load was committed (tdb2.tdbloader is one transaction): fix the file and load again`,
    );
  });

  it("refuses a shard whose size is not the manifest's, two files of one name, and nothing to load", async () => {
    const s = shards([[t(1)], [t(2)]]);
    writeFileSync(s.files[1]!, `${t(2)}\n${t(3)}\n`);
    await expect(tdbBulkLoad(options({ manifest: s.manifest, cwd: s.folder }))).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining('the manifest says'),
    });
    const other = shards([[t(1)]]);
    await expect(tdbBulkLoad(options({ files: [s.files[0]!, other.files[0]!] }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('two files named d.1.nt'),
    });
    await expect(tdbBulkLoad(options({}))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('nothing to load'),
    });
    await expect(tdbBulkLoad(options({ files: s.files, graph: 'not an iri' }))).rejects.toMatchObject({
      code: 'usage',
    });
  });
});
