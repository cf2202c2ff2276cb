import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IdentityConflicts, personsMatch } from '../../src/pipeline/IdentityConflicts.js';
import { slug } from '../../src/mapping/entityIris.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { runCli } from '../helpers/cli.js';

const ORCID = '0000-0002-1825-0097';
const article = (doi: string, creator: string, extra: Record<string, unknown> = {}) => ({
  doi,
  title: `T ${doi}`,
  contentType: 'Article',
  creators: [{ creator, ORCID }],
  ...extra,
});

describe('personsMatch', () => {
  it.each([
    ['Müller, Anna', 'Anna Muller'],
    ['Müller, Anna', 'MÜLLER, A.'],
    ['Müller, A.', 'Anna Müller'],
    ['Carberry, Josiah S.', 'Josiah Carberry'],
  ])('takes "%s" and "%s" for one person', (a, b) => expect(personsMatch(slug(a), slug(b))).toBe(true));
  it.each([
    ['Müller, Anna', 'Gamma, Gil'],
    ['Müller, Anna', 'Müller, Bert'],
    ['A. B.', 'Anna Bert'],
  ])('takes "%s" and "%s" for two', (a, b) => expect(personsMatch(slug(a), slug(b))).toBe(false));
});

describe('IdentityConflicts', () => {
  const observe = (c: IdentityConflicts, raw: Record<string, unknown>) => {
    const m = mapRecord(normalizeRecord(raw));
    return c.observe(m.doi, m.identities);
  };

  it('reports one ORCID iD met with names that do not match, once, naming both records', () => {
    const c = new IdentityConflicts();
    expect(observe(c, article('10.1/a', 'Müller, Anna'))).toEqual([]);
    expect(observe(c, article('10.1/b', 'Anna Muller'))).toEqual([]);
    const found = observe(c, article('10.1/c', 'Gamma, Gil'));
    expect(found.map((f) => f.note)).toEqual([
      `conflict: ORCID iD ${ORCID} is "Müller, Anna" in 10.1/a and "Gamma, Gil" in 10.1/c`,
    ]);
    expect(observe(c, article('10.1/d', 'Gamma, G.'))).toEqual([]);
    expect(c.count).toBe(1);
  });

  it('reports a journal key met with two names (not spellings that normalise alike)', () => {
    const c = new IdentityConflicts();
    const j = (doi: string, name: string) => ({
      doi,
      title: 't',
      contentType: 'Article',
      journalId: '11306',
      issn: '1573-3882',
      publicationName: name,
      publisher: 'Springer',
    });
    expect(observe(c, j('10.1/a', 'Metabolomics'))).toEqual([]);
    expect(observe(c, j('10.1/b', 'METABOLOMICS'))).toEqual([]);
    const found = observe(c, j('10.1/c', 'Hydrobiologia'));
    // Both keys of the record (the journal id and the ISSN) name the clash.
    expect(found.map((f) => f.key)).toEqual(['https://w3id.org/scholarly-rdf/journal/11306', 'urn:issn:1573-3882']);
    expect(found[0]!.note).toContain('"Metabolomics" in 10.1/a and "Hydrobiologia" in 10.1/c');
  });
});

describe('convert: conflicts in the summary and --json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conflicts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([['1'], ['2']])('counts them, prints them and lists them in --notes (jobs %s)', async (jobs) => {
    writeFileSync(
      join(dir, 'in.jsonl'),
      [article('10.1/a', 'Müller, Anna'), article('10.1/b', 'Gamma, Gil')].map((r) => JSON.stringify(r)).join('\n') +
        '\n',
    );
    const r = await runCli([
      'convert',
      join(dir, 'in.jsonl'),
      '-o',
      join(dir, `out${jobs}.nt`),
      '--notes',
      join(dir, `notes${jobs}.jsonl`),
      '--json',
      '-j',
      jobs,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout.trim().split('\n').pop()!) as { conflicts: number; conflictNotes: string[] };
    expect(json.conflicts).toBe(1);
    expect(json.conflictNotes).toEqual([
      `conflict: ORCID iD ${ORCID} is "Müller, Anna" in 10.1/a and "Gamma, Gil" in 10.1/b`,
    ]);
    expect(r.stderr).toContain('conflicts 1');
    expect(r.stderr).toContain(json.conflictNotes[0]);
    const notes = readFileSync(join(dir, `notes${jobs}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { recordId: string; notes: string[] });
    expect(notes.filter((n) => n.notes.includes(json.conflictNotes[0]!)).map((n) => n.recordId)).toEqual(['10.1/b']);
  });

  it.each([['1'], ['2']])(
    'a DOI met twice with different content: one conflict naming both records (jobs %s)',
    async (jobs) => {
      const a = { doi: '10.1/dup', title: 'First', contentType: 'Article' };
      const lines = [
        a,
        { doi: '10.1/other', title: 'Other', contentType: 'Article' },
        // The same record again (spelled otherwise: DOI in capitals, identifier given): a duplicate, no conflict.
        { ...a, doi: '10.1/DUP', identifier: 'doi:10.1/dup' },
        { ...a, title: 'Second' },
      ];
      writeFileSync(join(dir, 'dup.jsonl'), lines.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const input = join(dir, 'dup.jsonl');
      const r = await runCli([
        'convert',
        input,
        '-o',
        join(dir, `dup${jobs}.nt`),
        '--notes',
        join(dir, `dupnotes${jobs}.jsonl`),
        '--rejects',
        join(dir, `duprejects${jobs}.jsonl`),
        '--json',
        '-j',
        jobs,
      ]);
      expect(r.code, r.stderr).toBe(1); // two duplicates rejected
      const note = `conflict: DOI 10.1/dup has different content in ${input}#1 (line 1) and ${input}#4 (line 4) (the first is written, the second left out as a duplicate)`;
      const json = JSON.parse(r.stdout.trim().split('\n').pop()!) as { conflicts: number; conflictNotes: string[] };
      expect(json.conflicts).toBe(1);
      expect(json.conflictNotes).toEqual([note]);
      expect(r.stderr).toContain('conflicts 1');
      expect(r.stderr).toContain(note);
      const notes = readFileSync(join(dir, `dupnotes${jobs}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { index: number; recordId: string; notes: string[] });
      expect(notes.filter((n) => n.notes.includes(note)).map((n) => [n.index, n.recordId])).toEqual([[4, '10.1/dup']]);
      const rejects = readFileSync(join(dir, `duprejects${jobs}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { index: number; code: string; conflict?: string });
      expect(rejects.map((x) => [x.index, x.code, x.conflict ?? null])).toEqual([
        [3, 'duplicate-doi', null],
        [4, 'duplicate-doi', note],
      ]);
    },
  );
});
