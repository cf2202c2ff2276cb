import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSchemaScheme } from '../../src/shacl/detectSchemaScheme.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'schema-scheme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLE = readFileSync('data/sample-catalogue.jsonl', 'utf8').split('\n').slice(0, 30).join('\n');

describe('detectSchemaScheme', () => {
  it('reads the namespace from the start of a dump, plain or gzip', async () => {
    const https = join(dir, 'a.nt');
    writeFileSync(https, '<https://doi.org/10.1/a> <https://schema.org/name> "x" .\n');
    const http = join(dir, 'b.nt.gz');
    writeFileSync(http, gzipSync('<https://doi.org/10.1/a> <http://schema.org/name> "x" .\n'));
    expect(await detectSchemaScheme(https)).toBe('https');
    expect(await detectSchemaScheme(http)).toBe('http');
    expect(await detectSchemaScheme(join(dir, 'missing.nt'))).toBe('http');
  });

  it('lets validate check a --schema-https dump against the shipped shapes, and still find its violations', async () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, SAMPLE);
    const out = join(dir, 'https.nt');
    expect((await runCli(['convert', input, '-o', out, '--schema-https', '--quiet'])).code).toBe(0);
    const ok = await runCli(['validate', out, '--quiet']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('records: 30, conforming: 30');
    // A violation in the https namespace is found: the shapes were rewritten, not switched off.
    const broken = join(dir, 'broken.nt');
    const lines = readFileSync(out, 'utf8').split('\n');
    const work = lines[0]!.split(' ')[0]!;
    lines.splice(1, 0, `${work} <https://schema.org/publisher> "not an organisation" .`);
    writeFileSync(broken, lines.join('\n'));
    const bad = await runCli(['validate', broken, '--quiet']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('not conforming: 1');
  });
});
