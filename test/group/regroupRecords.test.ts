import { readdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupNTriplesRecords } from '../../src/group/groupNTriplesRecords.js';
import { regroupRecords } from '../../src/group/regroupRecords.js';
import type { KeyedRecordText } from '../../src/group/regroupRecords.js';
import { parseRecordText } from '../../src/group/RecordText.js';

async function* of(text: string): AsyncGenerator<string> {
  yield text;
}

async function collect(it: AsyncIterable<KeyedRecordText>): Promise<KeyedRecordText[]> {
  const out: KeyedRecordText[] = [];
  for await (const g of it) out.push(g);
  return out;
}

describe('regroupRecords', () => {
  it("joins a sorted dump's shared nodes back to every record that names them, through issue, volume and journal, once each", async () => {
    const B = 'https://w3id.org/scholarly-rdf/';
    const t = (s: string, p: string, o: string) => `<${s}> <http://schema.org/${p}> ${o} .`;
    const journal = `${B}journal/7`;
    const volume = `${journal}/volume/1`;
    const issue = `${volume}/issue/2`;
    const lines = [
      t('https://doi.org/10.1/a', 'isPartOf', `<${issue}>`),
      t('https://doi.org/10.1/b', 'isPartOf', `<${issue}>`),
      t('https://doi.org/10.1/c', 'name', '"C"'),
      t(issue, 'isPartOf', `<${volume}>`),
      t(issue, 'isPartOf', `<${volume}>`), // written by both records: kept once
      t(volume, 'isPartOf', `<${journal}>`),
      t(journal, 'name', '"J"'),
      t(`${B}publisher/nobody`, 'name', '"Orphan"'),
    ].sort();
    const groups = await collect(
      regroupRecords(groupNTriplesRecords(of(lines.join('\n')), { window: 1 }), { buckets: 3 }),
    );
    const byKey = new Map(groups.map((g) => [g.key ?? '(none)', g]));
    for (const doi of ['10.1/a', '10.1/b']) {
      const g = byKey.get(doi)!;
      const rows = g.text.trim().split('\n');
      expect(rows.filter((r) => r.startsWith(`<${issue}>`))).toHaveLength(1);
      expect(rows.some((r) => r.startsWith(`<${volume}>`)) && rows.some((r) => r.startsWith(`<${journal}>`))).toBe(
        true,
      );
      expect(g.lines).toHaveLength(rows.length);
      expect(g.lines.every((n) => lines[n - 1] === rows[g.lines.indexOf(n)])).toBe(true);
    }
    expect(byKey.get('10.1/c')!.text.trim().split('\n')).toHaveLength(1);
    // A shared node no record names is validated with the quads of no record (an orphan, reported as such).
    expect(groups.filter((g) => g.key === undefined).map((g) => g.text.trim())).toEqual([
      lines.find((l) => l.includes('nobody')),
    ]);
  });

  it('brings the scattered lines of each record together, with their input lines, and leaves no temporary file', async () => {
    const line = (subject: string, value: string) => `<${subject}> <http://schema.org/name> "${value}" .`;
    const work = (doi: string) => `https://doi.org/${doi}`;
    const owned = (doi: string) => `https://w3id.org/scholarly-rdf/doi/${doi}#author-1`;
    // Sorted by subject: every work first, then every owned node; one line of no record.
    const text = [
      line(work('10.1/a'), 'A'),
      line(work('10.1/b'), 'B'),
      line(work('10.1/c'), 'C'),
      '_:x <http://schema.org/name> "other" .',
      line(owned('10.1/a'), 'a1'),
      line(owned('10.1/b'), 'b1'),
      line(owned('10.1/c'), 'c1'),
    ].join('\n');
    const tmp = mkdtempSync(join(tmpdir(), 'regroup-test-'));
    try {
      const groups = await collect(
        regroupRecords(groupNTriplesRecords(of(text), { window: 1 }), { buckets: 2, tmpDir: tmp }),
      );
      const records = groups.filter((g) => g.key !== undefined);
      expect(records.map((g) => g.key).sort()).toEqual(['10.1/a', '10.1/b', '10.1/c']);
      const a = records.find((g) => g.key === '10.1/a')!;
      expect(a.lines).toEqual([1, 5]);
      expect(parseRecordText(a).map((q) => q.object.value)).toEqual(['A', 'a1']);
      expect(groups.filter((g) => g.key === undefined).map((g) => g.lines)).toEqual([[4]]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("gives a sorted dump's blank-node lines, which come after every IRI line, to their records (keepBlankOwners)", async () => {
    const lines = [
      '<https://doi.org/10.1/a> <http://purl.org/ontology/bibo/authorList> _:a1 .',
      '<https://doi.org/10.1/b> <http://purl.org/ontology/bibo/authorList> _:b1 .',
      '<https://doi.org/10.1/c> <http://schema.org/name> "C" .',
      '_:a1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:a2 .',
      '_:a2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .',
      '_:b1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .',
      '_:z <http://schema.org/name> "nobody\'s" .',
    ].sort();
    const groups = await collect(
      regroupRecords(groupNTriplesRecords(of(`${lines.join('\n')}\n`), { window: 1, keepBlankOwners: true }), {
        buckets: 3,
      }),
    );
    const subjects = (key: string | undefined) =>
      groups
        .filter((g) => g.key === key)
        .flatMap((g) =>
          parseRecordText(g).map((q) =>
            q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value,
          ),
        );
    expect(subjects('10.1/a').sort()).toEqual(['_:a1', '_:a2', 'https://doi.org/10.1/a']);
    expect(subjects('10.1/b').sort()).toEqual(['_:b1', 'https://doi.org/10.1/b']);
    expect(subjects(undefined)).toEqual(['_:z']);
  });

  it('keeps input lines through the merge, so a syntax error names its line', async () => {
    const text =
      '<https://doi.org/10.1/a> <http://schema.org/name> "A" .\n<https://doi.org/10.1/b> <http://schema.org/name> "B" .\n<https://doi.org/10.1/a> <http://schema.org/name> "broken .\n';
    const groups = await collect(regroupRecords(groupNTriplesRecords(of(text), { window: 1 }), { buckets: 1 }));
    const a = groups.find((g) => g.key === '10.1/a')!;
    expect(a.lines).toEqual([1, 3]);
    expect(() => parseRecordText(a)).toThrow(/^<input>:3: invalid N-Triples/);
  });
});
