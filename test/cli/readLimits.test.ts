import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GspTestServer } from '../store/GspTestServer.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tempDir.js';

const dir = tempDir('read-limits-');

/** A record whose `title` holds `levels` nested arrays. */
function nestedRecord(doi: string, levels: number): string {
  return JSON.stringify({ doi, title: JSON.parse(`${'['.repeat(levels)}"x"${']'.repeat(levels)}`) });
}

describe('--max-depth and --max-document-chars', () => {
  it('convert: a record deeper than --max-depth is rejected naming the flag; the others are written', async () => {
    const input = join(dir, 'deep.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({ doi: '10.1/a', title: 'A' })}\n${nestedRecord('10.1/b', 10)}\n${JSON.stringify({ doi: '10.1/c', title: 'C' })}\n`,
    );
    const loose = await runCli(['convert', input, '-o', join(dir, 'loose.nt'), '--quiet']);
    const strict = await runCli(['convert', input, '-o', join(dir, 'strict.nt'), '--max-depth', '5', '--quiet']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--max-depth');
    const written = readFileSync(join(dir, 'strict.nt'), 'utf8');
    expect(written).toContain('10.1/a');
    expect(written).toContain('10.1/c');
    expect(written).not.toContain('10.1/b');
    // Without the flag the default (64 levels) reads it (what the mapper then makes of a nested title is another matter).
    expect(loose.stderr).not.toContain('nested deeper');
  });

  it('convert: a line of JSON larger than --max-document-chars is rejected naming the flag', async () => {
    const input = join(dir, 'big.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({ doi: '10.1/a', title: 'A' })}\n${JSON.stringify({ doi: '10.1/b', title: 'x'.repeat(5000) })}\n`,
    );
    const r = await runCli(['convert', input, '-o', join(dir, 'big.nt'), '--max-document-chars', '1000', '--quiet']);
    expect(r.stderr).toContain('--max-document-chars');
    expect(readFileSync(join(dir, 'big.nt'), 'utf8')).toContain('10.1/a');
    expect(readFileSync(join(dir, 'big.nt'), 'utf8')).not.toContain('10.1/b');
  });

  it('rejects a limit that is not a positive whole number (exit 2)', async () => {
    const r = await runCli(['convert', 'x.json', '--max-depth', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-depth');
  });

  describe('load', () => {
    let server: GspTestServer;
    beforeAll(async () => {
      server = await new GspTestServer().start();
    });
    afterAll(async () => {
      await server.stop();
    });

    it('an N-Triples line longer than --max-document-chars ends the load with exit 4 naming the file and the flag', async () => {
      const input = join(dir, 'long.nt');
      writeFileSync(
        input,
        `<http://ex.org/a> <http://ex.org/p> "short" .\n<http://ex.org/a> <http://ex.org/p> "${'y'.repeat(4000)}" .\n`,
      );
      // In its own folder: the load log is written in the working directory.
      const r = await runCli(
        ['load', input, '--endpoint', server.dataset, '--graph', 'urn:x:limits', '--max-document-chars', '1000'],
        { cwd: dir },
      );
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('long.nt');
      expect(r.stderr).toContain('--max-document-chars');
    });
  });
});

describe('validate --max-depth / --max-document-chars', () => {
  it('an N-Triples line longer than the limit ends validation with exit 4 naming the file and the flag', async () => {
    const input = join(dir, 'long-validate.nt');
    writeFileSync(
      input,
      `<http://ex.org/a> <http://ex.org/p> "short" .\n<http://ex.org/a> <http://ex.org/p> "${'y'.repeat(4000)}" .\n`,
    );
    const r = await runCli(['validate', input, '--max-document-chars', '1000', '--quiet'], { cwd: dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('long-validate.nt');
    expect(r.stderr).toContain('--max-document-chars');
  });

  it('JSON-LD nested deeper than --max-depth ends validation with exit 4 naming the flag', async () => {
    const input = join(dir, 'deep.jsonld');
    const levels = 12;
    writeFileSync(
      input,
      `{"@context":{"p":"http://ex.org/p"},"@id":"http://ex.org/a","p":${'{"p":'.repeat(levels)}"x"${'}'.repeat(levels)}}`,
    );
    const r = await runCli(['validate', input, '--max-depth', '8', '--quiet'], { cwd: dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('--max-depth');
  });
});
