import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ReadItem, readRecords } from '../../src/record/readRecords.js';
import { tryParse } from '../../src/record/tryParse.js';

async function read(text: string | Buffer): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readRecords(Readable.from([Buffer.from(text)]), { source: 't' })) out.push(item);
  return out;
}
const records = (items: ReadItem[]) =>
  items.filter((i) => i.kind === 'record').map((i) => (i as { raw: { doi?: string } }).raw.doi);

describe('readRecords', () => {
  it('unwraps a v2 envelope, a v1 envelope, a bare record and an array', async () => {
    expect(
      records(await read(readFileSync('test/fixtures/service/meta-v1-2015-articles-last-page-s701-2records.json'))),
    ).toEqual(['10.1007/s11101-015-9436-y', '10.1007/s12024-015-9713-5']);
    expect(
      records(await read('{"query":"doi=10.1/a","result":[],"records":[{"doi":"10.1/a","journalTitle":"J"}]}')),
    ).toEqual(['10.1/a']);
    expect(
      records(
        await read(
          readFileSync('test/fixtures/service/metadata-json-2023-record-only-computational-visual-media.json'),
        ),
      ),
    ).toEqual(['10.1007/s41095-022-0275-7']);
    expect(records(await read('[{"doi":"10.1/a"},{"doi":"10.1/b"}]'))).toEqual(['10.1/a', '10.1/b']);
  });

  it('reads newline-delimited JSON of records and envelopes, and reports a broken line without losing the others', async () => {
    const items = await read(
      '{"doi":"10.1/a"}\r\n{"records":[{"doi":"10.1/b"}],"result":[]}\n{"doi": broken\n\n{"doi":"10.1/c"}\n',
    );
    expect(records(items)).toEqual(['10.1/a', '10.1/b', '10.1/c']);
    const problems = items.filter((i) => i.kind === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 3, index: 3 });
  });

  it('reports a single JSON document too large to read whole as a problem, with the way out, instead of failing', async () => {
    const doc = `[\n${Array.from({ length: 50 }, (_, i) => `  {"doi":"10.1/r${i}"}`).join(',\n')}\n]\n`;
    const items: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([doc]), { source: 'big.json', maxDocumentChars: 400 }))
      items.push(item);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'problem',
        source: 'big.json',
        line: 1,
        reason: expect.stringMatching(/^the JSON document is larger than .* newline-delimited JSON/),
      }),
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
    expect(records(await read('{"records":[{"doi":"10.1/a","title":"two\r\nlines"}],\r\n"result":[]}'))).toEqual([
      '10.1/a',
    ]);
  });

  it('reports an error body of the service, an empty input and a truncated file', async () => {
    const err = await read(readFileSync('test/fixtures/service/error-401-invalid-key.json'));
    expect(err).toEqual([
      expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/error response.*API key/) }),
    ]);
    expect(await read('  \n')).toEqual([
      expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/empty/) }),
    ]);
    const truncated = await read('{"records":[{"doi":"10.1/a",\n"title":"x"');
    expect(truncated).toEqual([
      expect.objectContaining({ kind: 'problem', reason: expect.stringMatching(/truncated/) }),
    ]);
  });

  it('decodes invalid UTF-8 as U+FFFD instead of failing', async () => {
    const items = await read(
      Buffer.concat([Buffer.from('{"doi":"10.1/a","title":"x'), Buffer.from([0xff, 0xfe]), Buffer.from('y"}')]),
    );
    expect((items[0] as { raw: { title: string } }).raw.title).toBe('x\uFFFD\uFFFDy');
  });

  it('rejects a record nested deeper than maxDepth without building it, and reads the records around it', async () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    // Newline-delimited: the deep line is one problem (index and line), the next lines are read.
    const lines = await read(`{"doi":"10.1/a"}\n{"doi":"10.1/deep","x":${deep(100_000)}}\n{"doi":"10.1/b"}\n`);
    expect(records(lines)).toEqual(['10.1/a', '10.1/b']);
    expect(lines[1]).toMatchObject({
      kind: 'problem',
      index: 2,
      line: 2,
      reason: expect.stringMatching(
        /^nested deeper than 64 levels \(in x\.a\.a.*…\): a record this deep is not read \(`maxDepth` raises the limit\)$/,
      ),
    });
    expect((lines[1] as { excerpt: string }).excerpt).toBe(`{"doi":"10.1/deep","x":${deep(100_000)}`.slice(0, 200));
    // One document (an array): only the deep record is a problem.
    const doc = await read(`[\n{"doi":"10.1/a"},\n{"doi":"10.1/deep","title":[[${deep(70)}]]},\n{"doi":"10.1/b"}\n]\n`);
    expect(records(doc)).toEqual(['10.1/a', '10.1/b']);
    expect(doc[1]).toMatchObject({
      kind: 'problem',
      index: 2,
      reason: expect.stringMatching(/^nested deeper than 64 levels \(in title\[0\]\[0\]\.a/),
    });
    // At the limit: read. The limit counts the levels of the line (an envelope's too) and is an option.
    expect(records(await read(`{"doi":"10.1/x","x":${deep(63)}}`))).toEqual(['10.1/x']);
    expect(records(await read(`{"records":[{"doi":"10.1/x","x":${deep(61)}}]}`))).toEqual(['10.1/x']);
    expect(records(await read(`{"records":[{"doi":"10.1/x","x":${deep(62)}}]}`))).toEqual([]);
    const raised: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([`{"doi":"10.1/x","x":${deep(100)}}`]), { maxDepth: 101 }))
      raised.push(item);
    expect(records(raised)).toEqual(['10.1/x']);
  });

  it('keeps the other messages of deep input: arrays too deep to be records, a deep text cut off before its end', async () => {
    expect(await read(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual([
      expect.objectContaining({ kind: 'problem', reason: 'arrays nested too deep to be records' }),
    ]);
    expect(await read('['.repeat(100_000))).toEqual([
      expect.objectContaining({
        kind: 'problem',
        reason: expect.stringMatching(
          /^not valid JSON: the input ends before its objects and arrays are closed \(line 1, column 100001\); the file looks truncated/,
        ),
      }),
    ]);
    // A syntax error after a deep part is placed in the text as given.
    const [bad] = await read(`{"doi":"10.1/a","x":${deep100()},"y" 1}`);
    const at = `{"doi":"10.1/a","x":${deep100()},"y"`.length;
    expect(bad).toMatchObject({
      kind: 'problem',
      reason: `not valid JSON: Unexpected number in JSON at position ${at + 1} (line 1, column ${at + 2})`,
    });
  });

  it('reports a line longer than maxDocumentChars as a problem without holding it, and reads the lines after it', async () => {
    const long = `{"doi":"10.1/long","abstract":"${'x'.repeat(5000)}"}`;
    const chunks = [`{"doi":"10.1/a"}\n`, ...long.match(/.{1,700}/g)!, '\n{"doi":"10.1/b"}\n'];
    const items: ReadItem[] = [];
    for await (const item of readRecords(Readable.from(chunks), { source: 'l.jsonl', maxDocumentChars: 1000 }))
      items.push(item);
    expect(records(items)).toEqual(['10.1/a', '10.1/b']);
    expect(items[1]).toMatchObject({
      kind: 'problem',
      index: 2,
      line: 2,
      // (A record's line of newline-delimited input: no advice to give the records one a line.)
      reason:
        'the line holds more than 1000 characters of JSON, more than is read as a whole (`maxDocumentChars` raises the limit)',
      excerpt: long.slice(0, 200),
    });
    // The same items from bytes in reads of any size (one byte, odd sizes, larger than the limit).
    const bytes = Buffer.from(chunks.join(''));
    for (const size of [1, 7, 333, 999, 1001, 6000]) {
      const reads: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) reads.push(bytes.subarray(at, at + size));
      const fromBytes: ReadItem[] = [];
      for await (const item of readRecords(Readable.from(reads), { source: 'l.jsonl', maxDocumentChars: 1000 }))
        fromBytes.push(item);
      expect(fromBytes, `reads of ${size}`).toEqual(items);
    }
    // A single-line document larger than the limit is one problem, not a crash, and not accepted.
    const one: ReadItem[] = [];
    for await (const item of readRecords(
      Readable.from([`{"records":[${Array.from({ length: 100 }, (_, i) => `{"doi":"10.1/r${i}"}`).join(',')}]}`]),
      { maxDocumentChars: 1000 },
    ))
      one.push(item);
    expect(one).toEqual([
      expect.objectContaining({
        kind: 'problem',
        line: 1,
        reason: expect.stringMatching(/more than 1000 characters.*: give the records as newline-delimited JSON/),
      }),
    ]);
  });
  it('reads bytes as it reads their text, cut anywhere: the same items (a long line, invalid UTF-8, CR LF), one or two byte order marks dropped', async () => {
    // (1,800 bytes but 930 characters: read; 2,400 bytes, 1,230 characters: too long.)
    const near = `{"doi":"10.1/near","abstract":"${'é'.repeat(900)}"}`;
    const long = `{"doi":"10.1/long","abstract":"${'é'.repeat(1200)}"}`;
    const text = `\uFEFF\uFEFF{"doi":"10.1/a"}\r\n${long}\n${near}\n{"doi":"10.1/\uFFFD"}\n{"doi": 中\n{"doi":"10.1/b"}`;
    const bytes = Buffer.from(text.replace('\uFFFD', '\u0000'));
    bytes[bytes.indexOf(0)] = 0xff;
    const all = async (chunks: (string | Buffer)[]) => {
      const out: ReadItem[] = [];
      for await (const item of readRecords(Readable.from(chunks), { source: 's', maxDocumentChars: 1000 }))
        out.push(item);
      return out;
    };
    const fromText = await all([text]);
    expect(records(fromText)).toEqual(['10.1/a', '10.1/near', '10.1/\uFFFD', '10.1/b']);
    expect(fromText.map((i) => i.kind)).toEqual(['record', 'problem', 'record', 'record', 'problem', 'record']);
    expect(fromText[1]).toMatchObject({ line: 2, excerpt: long.slice(0, 200) });
    for (let cut = 0; cut <= bytes.length; cut += 37)
      expect(await all([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(fromText);
  });

  it('keepText: a record alone on its line keeps the JSON text it was parsed from (joined lines too); envelopes, documents and deep records do not', async () => {
    const lines = [
      '{"doi":"10.1/a","title":"Café ☕"}',
      '{"records":[{"doi":"10.1/b"},{"doi":"10.1/c"}]}',
      '{"doi":"10.1/d","title":"broken',
      'over a line"}',
      '',
      '"just text"',
      '{"doi":"10.1/deep","x":[[[[[[1]]]]]]}',
    ];
    const items: ReadItem[] = [];
    for await (const item of readRecords(Readable.from([Buffer.from(lines.join('\r\n'))]), {
      source: 't',
      keepText: true,
      maxDepth: 4,
    }))
      items.push(item);
    expect(items.map((i) => (i.kind === 'record' ? i.text : i.kind))).toEqual([
      lines[0],
      undefined,
      undefined,
      `${lines[2]}\n${lines[3]}`,
      lines[5],
      'problem',
    ]);
    // The text parses (as readRecords parses: raw line breaks in strings repaired) to the record.
    for (const item of items)
      if (item.kind === 'record' && item.text !== undefined)
        expect(tryParse(item.text)).toEqual({ ok: true, value: item.raw });
    // Without keepText no record carries text; a JSON document (not newline-delimited) never does.
    expect((await read(lines.join('\n'))).some((i) => 'text' in i)).toBe(false);
    const document: ReadItem[] = [];
    for await (const item of readRecords(Readable.from(['[{"doi":"10.1/a"},\n{"doi":"10.1/b"}]']), { keepText: true }))
      document.push(item);
    expect(document.map((i) => i.kind === 'record' && 'text' in i)).toEqual([false, false]);
  });
});

function deep100(): string {
  return `${'['.repeat(100)}1${']'.repeat(100)}`;
}

describe('readRecords: a truncated response', () => {
  it('reads the records whole before the cut and reports the rest with the reason; the echoed apiKey is in no excerpt', async () => {
    const page = JSON.parse(
      readFileSync('test/fixtures/service/meta-v1-2015-articles-last-page-s701-2records.json', 'utf8'),
    ) as { records: unknown[] };
    const many = {
      apiKey: 'Echoed-Key-0123456789',
      query: 'x',
      result: [],
      records: Array.from({ length: 5 }, (_, i) => ({ ...(page.records[0] as object), doi: `10.1/r${i}` })),
    };
    const text = JSON.stringify(many, null, 2);
    const cut = text.slice(0, text.indexOf('"10.1/r3"') + 20);
    const items = await read(cut);
    expect(records(items)).toEqual(['10.1/r0', '10.1/r1', '10.1/r2']);
    const problems = items.filter((i) => i.kind === 'problem');
    expect(problems).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /^the response is cut off after its record 3 \(line \d+\): .*the 3 records before the cut are read, those after it are missing/,
        ),
      }),
    ]);
    // Every record accounted for: 3 read, the rest one problem; no excerpt holds the key.
    expect(JSON.stringify(items)).not.toContain('Echoed-Key');
    const head = await read(`{"apiKey":"Echoed-Key-0123456789","records":[{"doi":"10.1/x","title":"cut`);
    expect(head).toEqual([expect.objectContaining({ kind: 'problem' })]);
    expect(JSON.stringify(head)).not.toContain('Echoed-Key');
  });
});
