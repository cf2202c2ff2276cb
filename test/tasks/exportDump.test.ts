import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readExportState } from '../../src/export/ExportState.js';
import { type ExportDumpOptions, exportDump } from '../../src/tasks/exportDump.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-dump-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const now = () => new Date('2026-01-02T03:04:05.000Z');
const sample = (extra: Partial<ExportDumpOptions>): ExportDumpOptions => ({
  query: 'type:Journal',
  sample: true,
  pageSize: 10,
  maxRecords: 45,
  now,
  ...extra,
});

describe('exportDump with the sample', () => {
  it('names the sample in the state, not the port of its service: an interrupted export resumes to the bytes of an uninterrupted one', async () => {
    const full = join(dir, 'full.ttl');
    await exportDump(sample({ output: full }));
    const part = join(dir, 'part.ttl');
    const controller = new AbortController();
    let pages = 0;
    await expect(
      exportDump(
        sample({ output: part, signal: controller.signal, onProgress: () => ++pages === 2 && controller.abort() }),
      ),
    ).rejects.toMatchObject({ code: 'aborted' });
    const state = await readExportState(`${part}.state.json`);
    expect(state).toMatchObject({
      complete: false,
      counts: { records: 20 },
      identity: { endpoint: 'sample:/meta/v2/json' },
    });
    // A new run starts the service on another port; the saved state is still this export's.
    const summary = await exportDump(sample({ output: part, resume: true }));
    expect(summary).toMatchObject({ resumed: true, alreadyComplete: false });
    expect(readFileSync(part)).toEqual(readFileSync(full));
  });

  it('describes the dump the same way every run (its IRI and source name the sample)', async () => {
    const a = await exportDump(sample({ output: join(dir, 'a.nq'), maxRecords: 5 }));
    const b = await exportDump(sample({ output: join(dir, 'b.nq'), maxRecords: 5 }));
    expect(a.dataset).toBe(b.dataset);
    const text = readFileSync(join(dir, 'a.nq'), 'utf8');
    expect(text).toContain(`<${a.dataset}> <http://purl.org/dc/terms/source> <sample:/meta/v2/json> <${a.dataset}> .`);
    expect(text).not.toMatch(/127\.0\.0\.1/);
    expect(readFileSync(join(dir, 'b.nq'), 'utf8')).toBe(text);
  });
});
