import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { describeViolations } from '../../src/shacl/createRecordValidator.js';

const SERVICE = fileURLToPath(new URL('../fixtures/service/', import.meta.url));
let validator: RecordValidator;

beforeAll(async () => {
  validator = await RecordValidator.create();
});

function recordsOf(json: unknown): unknown[] {
  const j = json as { records?: unknown[]; doi?: unknown; identifier?: unknown };
  if (Array.isArray(j.records)) return j.records;
  return j.doi || j.identifier ? [j] : [];
}

async function violationsOf(raw: unknown): Promise<string[]> {
  const mapped = mapRecord(normalizeRecord(raw));
  const outcome = await validator.validateRecord(mapped.quads);
  return describeViolations(outcome).map((line) => `${mapped.doi}: ${line}`);
}

describe('the mapping conforms to shapes/', () => {
  it('for every record of the service fixtures (test/fixtures/service)', async () => {
    let records = 0;
    const violations: string[] = [];
    for (const file of readdirSync(SERVICE).filter((f) => f.endsWith('.json'))) {
      for (const raw of recordsOf(JSON.parse(readFileSync(`${SERVICE}${file}`, 'utf8')))) {
        records++;
        violations.push(...(await violationsOf(raw)));
      }
    }
    expect(records).toBeGreaterThanOrEqual(4);
    expect(violations).toEqual([]);
  });

  it('for every record of the bundled sample catalogue (data/sample-catalogue.jsonl)', async () => {
    const lines = readFileSync(sampleCataloguePath(), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(300);
    const violations: string[] = [];
    for (const line of lines) violations.push(...(await violationsOf(JSON.parse(line))));
    expect(violations.slice(0, 10)).toEqual([]);
  });

  it('for titles and names with characters beyond U+FFFF (emoji, CJK Extension B, mathematical letters)', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    raw['title'] = 'Tracking 🦠 spread with 𝔽-modules in 𠀋 villages';
    raw['creators'] = [{ creator: 'Zhang, 𠀋' }];
    expect(await violationsOf(raw)).toEqual([]);
  });

  it('for books, series known by id only, ISSNs and ISBNs that are none, and disciplines with clashing ids', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      { contentType: 'Book', publicationName: 'Methods in Molecular Biology', issn: '1064-3745', printIsbn: '978-1-0716-3972-6', volume: '1351' },
      { contentType: 'Book', journalId: '7651', issn: undefined, eIssn: undefined },
      { contentType: 'Chapter', publicationType: 'Book', journalId: '7651', issn: undefined, eIssn: undefined, printIsbn: '978-1-0716-3972-6' },
      { issn: 'n/a', eIssn: '15733890', printIsbn: 'unknown' },
      { disciplines: [{ term: 'Physics' }, { id: '1', term: 'Chemistry' }, { id: '1', term: 'Biology' }] },
    ];
    for (const variant of variants) expect(await violationsOf({ ...raw, ...variant }), JSON.stringify(variant)).toEqual([]);
  });

  it('and the validator notices when the mapping breaks (a record without its title)', async () => {
    const raw = JSON.parse(readFileSync(sampleCataloguePath(), 'utf8').split('\n')[0]!);
    const mapped = mapRecord(normalizeRecord(raw));
    const outcome = await validator.validateRecord(mapped.quads.filter((q) => !q.predicate.value.endsWith('/title')));
    expect(outcome.conforms).toBe(false);
    expect(outcome.results.map((r) => r.shape.value.split('#')[1])).toContain('Work-title');
  });
});
