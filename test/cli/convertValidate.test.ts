import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { parseNTriples } from '../helpers/rdf.js';
import { tempDir } from '../helpers/tempDir.js';

describe('convert --validate', () => {
  it('keeps conforming records, moves the others to the rejects with their violations: records in = written + rejected', async () => {
    const dir = tempDir('convert-validate-');
    const input = join(dir, 'in.ndjson');
    const good = {
      doi: '10.1000/good',
      title: 'A title',
      publicationDate: '2020-01-02',
      creators: [{ creator: 'Doe, Jane', ORCID: '0000-0002-1825-0097' }],
    };
    const noTitle = { doi: '10.1000/notitle', publicationDate: '2020-01-02' };
    const shortDoi = { doi: '10.12/short', title: 'T' };
    writeFileSync(input, [good, noTitle, shortDoi].map((r) => JSON.stringify(r)).join('\n'));
    const out = join(dir, 'out.nt');
    const rejects = join(dir, 'rejects.jsonl');
    const r = await runCli(['convert', input, '-o', out, '--rejects', rejects, '--validate']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/records read 3, mapped 1, rejected 2/);
    const subjects = new Set(parseNTriples(readFileSync(out, 'utf8')).map((q) => q.subject.value));
    expect(subjects.has('https://doi.org/10.1000/good')).toBe(true);
    expect(subjects.has('https://doi.org/10.1000/notitle')).toBe(false);
    const lines = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.recordId)).toEqual(['10.1000/notitle', '10.12/short']);
    expect(lines[0].violations.some((v: { path?: string }) => /name|title/.test(v.path ?? ''))).toBe(true);
    expect(lines[1].violations[0]).toMatchObject({ shape: 'srsh:Work-doi', path: 'bibo:doi', value: '"10.12/short"' });
    expect(lines[1].record).toEqual(shortDoi);
  });

  it('lets a valid copy of a record in after a rejected one with the same DOI, and rejects the copies after it', async () => {
    const dir = tempDir('convert-validate-');
    const input = join(dir, 'in.ndjson');
    const broken = { doi: '10.1000/twice', publicationDate: '2020-01-02' };
    const fixed = { doi: '10.1000/TWICE', title: 'A title', publicationDate: '2020-01-02' };
    writeFileSync(input, [broken, fixed, fixed].map((r) => JSON.stringify(r)).join('\n'));
    const out = join(dir, 'out.nt');
    const rejects = join(dir, 'rejects.jsonl');
    const r = await runCli(['convert', input, '-o', out, '--rejects', rejects, '--validate']);
    expect(r.stderr).toMatch(/records read 3, mapped 1, rejected 2/);
    const titles = parseNTriples(readFileSync(out, 'utf8')).filter(
      (q) => q.predicate.value === 'http://schema.org/name',
    );
    expect(titles.map((q) => q.object.value)).toEqual(['A title']);
    const lines = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.field])).toEqual([
      [1, expect.stringMatching(/name|title/)],
      [3, 'doi'],
    ]);
  });

  it('keeps input order in the output and the rejects across batches of records', async () => {
    const dir = tempDir('convert-validate-');
    const input = join(dir, 'in.ndjson');
    const records = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 3
        ? { doi: `10.1000/r${i}`, publicationDate: '2020-01-02' }
        : { doi: `10.1000/r${i}`, title: `Title ${i}`, publicationDate: '2020-01-02' },
    );
    const lines = records.map((r) => JSON.stringify(r));
    lines[20] = '{"title": "no DOI"}';
    writeFileSync(input, lines.join('\n'));
    const out = join(dir, 'out.nt');
    const rejects = join(dir, 'rejects.jsonl');
    const r = await runCli(['convert', input, '-o', out, '--rejects', rejects, '--validate']);
    // --jobs 1 validates in the converting thread (without it, in a worker on a machine of two cores or more): the same bytes.
    const one = await runCli([
      'convert',
      input,
      '-o',
      `${out}.1.nt`,
      '--rejects',
      `${rejects}.1`,
      '--validate',
      '--jobs',
      '1',
    ]);
    expect(one.code).toBe(r.code);
    expect(readFileSync(`${out}.1.nt`, 'utf8')).toBe(readFileSync(out, 'utf8'));
    expect(readFileSync(`${rejects}.1`, 'utf8')).toBe(readFileSync(rejects, 'utf8'));
    const bad = records.map((_, i) => i).filter((i) => i % 7 === 3 || i === 20);
    expect(r.stderr).toMatch(new RegExp(`records read 40, mapped ${40 - bad.length}, rejected ${bad.length}`));
    const written = [
      ...new Set(
        parseNTriples(readFileSync(out, 'utf8'))
          .map((q) => q.subject.value)
          .filter((s) => s.startsWith('https://doi.org/')),
      ),
    ];
    expect(written).toEqual(
      records
        .map((_, i) => i)
        .filter((i) => !bad.includes(i))
        .map((i) => `https://doi.org/10.1000/r${i}`),
    );
    const rejected = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejected.map((l) => l.line)).toEqual(bad.map((i) => i + 1));
  });
});
