import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleForChild } from './bundleForChild.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The record worker bundled from the sources (as dist/pipeline/recordWorker.js
 * is built from them), in a new temporary directory (`dir`, for the test to
 * remove): in dist/pipeline/ beside a link to vocab/, so that the JSON-LD
 * context is found as from dist/serialize/.
 */
export async function bundleRecordWorker(prefix: string): Promise<{ dir: string; workerUrl: URL }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'dist/pipeline'), { recursive: true });
  symlinkSync(join(ROOT, 'vocab'), join(dir, 'vocab'));
  return {
    dir,
    workerUrl: pathToFileURL(
      await bundleForChild(join(ROOT, 'src/pipeline/recordWorker.ts'), join(dir, 'dist/pipeline')),
    ),
  };
}
