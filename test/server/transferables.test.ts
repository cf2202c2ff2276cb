import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { INDEX_PART_NAMES } from '../../src/server/indexParts.js';
import { readCatalogueRange } from '../../src/server/readCatalogueFile.js';
import { transferables } from '../../src/server/transferables.js';
import { tempDir } from '../helpers/tempDir.js';

/** The typed arrays in a value, wherever they are. */
function views(value: unknown, out: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) out.push(value);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) views(v, out);
  return out;
}

describe('transferables', () => {
  it('lists the buffer of every large typed array of every part a worker sends back, the DOI hashes included', () => {
    const dir = tempDir('transfer-');
    const file = join(dir, 'c.jsonl');
    writeFileSync(
      file,
      [...generateRecords(2000, 2, { catalogueFields: true })].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    const raw = readCatalogueRange(file, 0, Number.MAX_SAFE_INTEGER);
    const list = new Set(transferables(raw));
    for (const name of INDEX_PART_NAMES) {
      const large = views(raw.parts[name]).filter((v) => v.buffer.byteLength >= 4096);
      expect(large.length, name).toBeGreaterThan(0);
      for (const v of large) expect(list.has(v.buffer as ArrayBuffer), name).toBe(true);
    }
    expect(list.has(raw.parts.doiHashes.buffer as ArrayBuffer)).toBe(true);
  });

  it('leaves small buffers to be copied and lists a shared buffer once', () => {
    const shared = new ArrayBuffer(8192);
    const data = {
      a: new Int32Array(shared, 0, 4),
      b: [new Uint8Array(shared, 100, 10)],
      small: new Int32Array(10),
      text: 'x',
    };
    expect(transferables(data)).toEqual([shared]);
  });
});
