/** What the tests of `exportRdf` share: a fake service and a folder per test, the options of a quick export, an interrupted run. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { type ExportOptions, exportRdf } from '../../src/export/exportRdf.js';
import type { FakeService } from '../client/fakeService.js';

/** The clock of every test export. */
export const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

/** A folder per test (`dir`) and the test's fake service (`service`, closed after it); `base()` the options of an export from it. */
export function exportHarness(
  key: string,
  folderPrefix: string,
): { readonly dir: string; service: FakeService | undefined; base: (extra?: Partial<ExportOptions>) => ExportOptions } {
  const h = {
    dir: '',
    service: undefined as FakeService | undefined,
    base: (extra: Partial<ExportOptions> = {}): ExportOptions => ({
      query: 'type:Journal',
      baseUrl: h.service!.url,
      apiKey: key,
      pageSize: 10,
      concurrency: 2,
      now: fixedNow,
      retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
      ...extra,
    }),
  };
  beforeEach(() => {
    h.dir = mkdtempSync(join(tmpdir(), folderPrefix));
  });
  afterEach(async () => {
    await h.service?.close();
    h.service = undefined;
    rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}

/** Runs an export, aborting it after `stopAfterPages` pages (like a crash between pages). */
export async function interrupted(options: ExportOptions, stopAfterPages: number): Promise<void> {
  const controller = new AbortController();
  let pages = 0;
  await expect(
    exportRdf({
      ...options,
      signal: controller.signal,
      onProgress: () => {
        if (++pages === stopAfterPages) controller.abort();
      },
    }),
  ).rejects.toBeInstanceOf(ToolkitError);
}
