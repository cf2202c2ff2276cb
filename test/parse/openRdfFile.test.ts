import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type * as RDF from '@rdfjs/types';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { ToolkitError } from '../../src/errors.js';
import { openRdfFile } from '../../src/parse/openRdfFile.js';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { expectIsomorphic, parseNTriples } from '../helpers/rdf.js';

const dir = mkdtempSync(join(tmpdir(), 'openRdfFile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vocab = (file: string) => readFileSync(new URL(`../../vocab/${file}`, import.meta.url));
const EXPECTED = parseNTriples(vocab('pagination.nt').toString('utf8'));

async function parseFile(path: string, stdin?: Readable): Promise<RDF.Quad[]> {
  const file = await openRdfFile(path, stdin);
  const out: RDF.Quad[] = [];
  for await (const q of parseRdf(file.input, { format: file.format, source: file.source })) out.push(q);
  return out;
}

describe('openRdfFile', () => {
  it('takes the format from the extension, before .gz', async () => {
    const path = join(dir, 'term.ttl.gz');
    writeFileSync(path, gzipSync(vocab('pagination.ttl')));
    const file = await openRdfFile(path);
    expect(file).toMatchObject({ format: 'turtle', gzip: true, source: path });
    file.input.destroy();
    expectIsomorphic(await parseFile(path), EXPECTED);
  });

  it('reads every format, gzipped or not', async () => {
    for (const ext of ['ttl', 'nt', 'rdf', 'jsonld']) {
      const plain = join(dir, `p.${ext}`);
      writeFileSync(plain, vocab(`pagination.${ext}`));
      writeFileSync(`${plain}.gz`, gzipSync(vocab(`pagination.${ext}`)));
      expectIsomorphic(await parseFile(plain), EXPECTED, ext);
      expectIsomorphic(await parseFile(`${plain}.gz`), EXPECTED, `${ext}.gz`);
    }
  });

  it('reads standard input for "-", gunzipping by magic bytes and sniffing the format', async () => {
    const file = await openRdfFile('-', Readable.from([gzipSync(vocab('pagination.rdf'))]));
    expect(file).toMatchObject({ format: undefined, gzip: true, source: '<stdin>' });
    file.input.destroy();
    expectIsomorphic(await parseFile('-', Readable.from([gzipSync(vocab('pagination.rdf'))])), EXPECTED);
    expectIsomorphic(await parseFile('-', Readable.from([vocab('pagination.nt')])), EXPECTED);
  });

  it('fails with an io error naming a missing file or a directory', async () => {
    await expect(openRdfFile(join(dir, 'missing.ttl'))).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining('missing.ttl: no such file'),
    });
    await expect(openRdfFile(dir)).rejects.toMatchObject({ code: 'io', message: expect.stringContaining('directory') });
  });

  it('fails with an io error on a corrupt gzip file', async () => {
    const path = join(dir, 'bad.nt.gz');
    const gz = gzipSync(vocab('pagination.nt'));
    writeFileSync(path, gz.subarray(0, gz.length - 30));
    const err = await parseFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect(err).toMatchObject({ code: 'io', message: expect.stringContaining('gzip') });
  });
});
