import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ReadItem, readRecords } from '../../src/record/readRecords.js';

async function read(text: string | Buffer): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readRecords(Readable.from([Buffer.from(text)]), { source: 't' })) out.push(item);
  return out;
}
const records = (items: ReadItem[]) => items.filter((i) => i.kind === 'record').map((i) => (i as { raw: { doi?: string } }).raw.doi);

describe('readRecords', () => {
  it('unwraps a v2 envelope, a v1 envelope, a bare record and an array', async () => {
    expect(records(await read(readFileSync('test/fixtures/service/meta-v1-2015-articles-last-page-s701-2records.json')))).toEqual([
      '10.1007/s11101-015-9436-y',
      '10.1007/s12024-015-9713-5',
    ]);
    expect(records(await read('{"query":"doi=10.1/a","result":[],"records":[{"doi":"10.1/a","journalTitle":"J"}]}'))).toEqual(['10.1/a']);
    expect(records(await read(readFileSync('test/fixtures/service/metadata-json-2023-record-only-computational-visual-media.json')))).toEqual([
      '10.1007/s41095-022-0275-7',
    ]);
    expect(records(await read('[{"doi":"10.1/a"},{"doi":"10.1/b"}]'))).toEqual(['10.1/a', '10.1/b']);
  });

  it('reads newline-delimited JSON of records and envelopes, and reports a broken line without losing the others', async () => {
    const items = await read('{"doi":"10.1/a"}\r\n{"records":[{"doi":"10.1/b"}],"result":[]}\n{"doi": broken\n\n{"doi":"10.1/c"}\n');
    expect(records(items)).toEqual(['10.1/a', '10.1/b', '10.1/c']);
    const problems = items.filter((i) => i.kind === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 3, index: 3 });
  });

  it('reports a single JSON document too large to read whole as a problem, with the way out, instead of failing', async () => {
    const doc = `[\n${Array.from({ length: 50 }, (_, i) => `  {"doi":"10.1/r${i}"}`).join(',\n')}\n]\n`;
    const items: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([doc]), { source: 'big.json', maxDocumentChars: 400 })) items.push(item);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'problem', source: 'big.json', line: 1, reason: expect.stringMatching(/^the JSON document is larger than .* newline-delimited JSON/) }),
    ]);
    const whole: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([doc]), { maxDocumentChars: doc.length + 1 })) whole.push(item);
    expect(records(whole)).toHaveLength(50);
  });

  it('splits lines across chunk boundaries and multi-byte characters', async () => {
    const text = Buffer.from('{"doi":"10.1/ä"}\n{"doi":"10.1/ü"}\n');
    const chunks = [...text].map((b) => Buffer.from([b]));
    const out: ReadItem[] = [];
    for await (const item of readRecords(Readable.from(chunks))) out.push(item);
    expect(records(out)).toEqual(['10.1/ä', '10.1/ü']);
  });

  it('repairs raw line breaks inside strings of a saved response', async () => {
    expect(records(await read('{"records":[{"doi":"10.1/a","title":"two\r\nlines"}],\r\n"result":[]}'))).toEqual(['10.1/a']);
  });

  it('reports an error body of the service, an empty input and a truncated file', async () => {
    const err = await read(readFileSync('test/fixtures/service/error-401-invalid-key.json'));
    expect(err).toEqual([expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/error response.*API key/) })]);
    expect(await read('  \n')).toEqual([expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/empty/) })]);
    const truncated = await read('{"records":[{"doi":"10.1/a",\n"title":"x"');
    expect(truncated).toEqual([expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/truncated/) })]);
  });

  it('decodes invalid UTF-8 as U+FFFD instead of failing', async () => {
    const items = await read(Buffer.concat([Buffer.from('{"doi":"10.1/a","title":"x'), Buffer.from([0xff, 0xfe]), Buffer.from('y"}')]));
    expect((items[0] as { raw: { title: string } }).raw.title).toBe('x\uFFFD\uFFFDy');
  });
});
