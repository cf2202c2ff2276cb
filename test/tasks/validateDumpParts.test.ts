import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { validateSummaryJson } from '../../src/cli/commands/validate.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { resultToJson } from '../../src/shacl/createRecordValidator.js';
import { validateDump, type ValidateDumpOptions } from '../../src/tasks/validateDump.js';

// The workers run the built worker (dist/shacl/validationWorker.js): `npm run build` first.
const dir = mkdtempSync(join(tmpdir(), 'validate-dump-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A dump of generated records, some without titles or with a second DOI, a record's last line after the next record's first. */
function dump(count: number): string {
  const w = serializerFor('ntriples').createWriter();
  const records = [...generateRecords(count, 21)].map((r, i) => {
    const lines = w
      .write(mapRecord(normalizeRecord(r)).quads)
      .split('\n')
      .filter((l) => l !== '');
    if (i % 4 === 1) return lines.filter((l) => !(l.startsWith('<https://doi.org/') && l.includes('schema.org/name>')));
    if (i % 5 === 2)
      lines.push(`${lines[0]!.split(' ')[0]} <http://purl.org/ontology/bibo/doi> "10.9999/second-${i}" .`);
    return lines;
  });
  records[7]!.splice(1, 0, records[6]!.pop()!);
  return `${records.map((r) => r.join('\n')).join('\n')}\n`;
}

async function run(options: Partial<ValidateDumpOptions>) {
  const report = join(dir, `report-${options.jobs}-${options.partBytes ?? 'default'}.ttl`);
  const result = await validateDump({ files: ['dump.nt'], cwd: dir, reportPath: report, ...options });
  const { jobs, elapsedMs, ...json } = validateSummaryJson(result, ['dump.nt'], 'report.ttl', resultToJson);
  return { jobs, elapsedMs, json, lines: result.summary.toLines(), report: readFileSync(report, 'utf8') };
}

describe('validateDump --jobs 2 on parts of the file', () => {
  it('writes the report of one job, the same text and graph, and the same summary (text and JSON), whatever the parts', async () => {
    writeFileSync(join(dir, 'dump.nt'), dump(60));
    const one = await run({ jobs: 1 });
    expect(one.json['mode']).toMatchObject({ mode: 'record' });
    expect(one.json['notConforming']).toBeGreaterThan(10);
    const quads = new Parser().parse(one.report);
    expect(quads.length).toBeGreaterThan(100);
    for (const partBytes of [1, 3000, 50_000, undefined]) {
      const two = await run({ jobs: 2, ...(partBytes !== undefined ? { partBytes } : {}) });
      expect(two.jobs).toBe(2);
      expect(two.json).toEqual(one.json);
      expect(two.lines).toEqual(one.lines);
      expect(two.report).toBe(one.report);
      expect(new Parser().parse(two.report)).toHaveLength(quads.length);
    }
  });

  it('tells its progress by the bytes of the parts passed on, up to the size of the file', async () => {
    writeFileSync(join(dir, 'dump.nt'), dump(30));
    const seen: { bytesRead: number; totalBytes: number | null; records: number }[] = [];
    const result = await validateDump({
      files: ['dump.nt'],
      cwd: dir,
      jobs: 2,
      partBytes: 20_000,
      onProgress: (p) => seen.push({ bytesRead: p.bytesRead, totalBytes: p.totalBytes, records: p.records }),
    });
    expect(result.jobs).toBe(2);
    const total = seen[0]!.totalBytes!;
    expect(seen.every((p) => p.bytesRead <= total)).toBe(true);
    expect(seen.map((p) => p.bytesRead)).toEqual([...seen.map((p) => p.bytesRead)].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toMatchObject({ bytesRead: total, records: 30 });
  });
});
