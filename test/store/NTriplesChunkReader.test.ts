import type * as RDF from '@rdfjs/types';
import { Parser, Writer } from 'n3';
import { describe, expect, it } from 'vitest';
import { ChunkReader, type ChunkSource } from '../../src/store/ChunkReader.js';
import { NTriplesChunkReader, type LoadSource } from '../../src/store/NTriplesChunkReader.js';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { serializerFor } from '../../src/serialize/serializers.js';

/** Bytes in pieces of `size` (lines cut across reads). */
async function* pieces(text: string | Buffer, size: number): AsyncGenerator<Uint8Array> {
  const buf = typeof text === 'string' ? Buffer.from(text) : text;
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

function lines(text: string | Buffer, { size = 7, nquads = false, source = 'in.nt' } = {}): LoadSource {
  return { kind: 'lines', source, bytes: pieces(text, size), nquads };
}

async function chunksOf(reader: ChunkSource, lookForDataset = false): Promise<{ text: string; triples: number }[]> {
  const out: { text: string; triples: number }[] = [];
  for (let c = await reader.next(true, lookForDataset); c; c = await reader.next(true))
    out.push({ text: c.body.toString('utf8'), triples: c.triples });
  return out;
}

/** Each chunk parsed as a store would (one document per chunk), written back by n3: the store's triples. */
function storeTriples(chunks: readonly { text: string }[]): string[] {
  const w = new Writer({ format: 'N-Triples' }) as unknown as {
    quadToString(s: RDF.Term, p: RDF.Term, o: RDF.Term): string;
  };
  return chunks.flatMap((c, i) =>
    new Parser({ format: 'N-Triples', blankNodePrefix: `c${i}_` })
      .parse(c.text)
      .map((q) => w.quadToString(q.subject, q.predicate, q.object).trim()),
  );
}

const S = '<https://doi.org/10.1007/s1>';
const P = '<http://schema.org/name>';
const INPUT = [
  '# a dump',
  `${S} ${P} "plain" .`,
  `${S} ${P} "caf\\u00E9 \\U0001F600" .`,
  '',
  `${S} <http://schema.org/about> <http://ex.org/\\u0041> .`,
  `${S} ${P} "Müller"@DE .`,
  `${S} ${P} "s"^^<http://www.w3.org/2001/XMLSchema#string> .`,
  `${S} ${P} "tab\there" .`,
  `${S} <http://schema.org/pageStart> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\r`,
  `${S} ${P} "quote \\" and \\\\ and \\n" .   # trailing comment`,
].join('\n');

describe('NTriplesChunkReader', () => {
  it('cuts chunks of chunkTriples at line boundaries, lines that a store reads as n3 does sent as they are', async () => {
    const reader = new NTriplesChunkReader([lines(INPUT)], { chunkTriples: 3 });
    const chunks = await chunksOf(reader);
    expect(chunks.map((c) => c.triples)).toEqual([3, 3, 2]);
    expect(chunks[0]!.text.startsWith(`# a dump\n${S} ${P} "plain" .\n`)).toBe(true);
    expect(chunks.at(-1)!.text).toContain(`"quote \\" and \\\\ and \\n" .   # trailing comment`);
    expect(reader.triplesRead).toBe(8);
    // What the store gets is what the parse-and-write path sends.
    const old = await chunksOf(
      new ChunkReader(parseRdf(INPUT, { format: 'ntriples' }), serializerFor('ntriples'), 3, undefined),
    );
    expect(storeTriples(chunks).sort()).toEqual(storeTriples(old).sort());
    expect(storeTriples(chunks).some((t) => t.includes('"café 😀"'))).toBe(true);
  });

  it('cuts off the graph of N-Quads lines and counts them', async () => {
    const nq = `${S} ${P} "a" <http://ex.org/g> .\n${S} ${P} "b" .\n${S} ${P} "c" _:g .\n${S} ${P} "d\\u0021" <http://ex.org/g> .\n`;
    const reader = new NTriplesChunkReader([lines(nq, { nquads: true, source: 'in.nq' })], { chunkTriples: 10 });
    const [chunk] = await chunksOf(reader);
    expect(chunk!.text).toBe(`${S} ${P} "a" .\n${S} ${P} "b" .\n${S} ${P} "c" .\n${S} ${P} "d!" .\n`);
    expect(reader.namedGraphQuads).toBe(3);
  });

  it('names the file and line of a bad line, as the parser of other loads does', async () => {
    const bad = `${S} ${P} "a" .\n${S} ${P} "b" .\n\n${S} ${P} "c .\n`;
    const reader = new NTriplesChunkReader(
      [lines('ok\n'.slice(3) + `${S} ${P} "x" .\n`, { source: 'first.nt' }), lines(bad, { source: 'dump.nt' })],
      { chunkTriples: 2 },
    );
    expect((await reader.next(true))!.triples).toBe(2);
    await expect(reader.next(true)).rejects.toMatchObject({
      code: 'parse',
      message: expect.stringMatching(/^dump\.nt:4(:\d+)?: invalid N-Triples: /),
    });
  });

  it('refuses an RDF 1.2 base direction, as the parse-and-write path does', async () => {
    const reader = new NTriplesChunkReader([lines(`${S} ${P} "x"@ar--rtl .\n`)], { chunkTriples: 2 });
    await expect(reader.next(true)).rejects.toMatchObject({
      code: 'serialization',
      message: expect.stringContaining('base direction'),
    });
  });

  it('labels blank nodes alike on lines sent as they are and lines written again, and apart per input', async () => {
    const one = `_:b_1 ${P} "a" .\n_:b_1 ${P} "caf\\u00E9" .\n_:x ${P} "b" .\n_:x ${P} "\\u0041" .\n`;
    const [chunk] = await chunksOf(new NTriplesChunkReader([lines(one)], { chunkTriples: 10 }));
    const subjects = new Parser({ format: 'N-Triples' }).parse(chunk!.text).map((q) => q.subject.value);
    expect(new Set(subjects).size).toBe(2);
    expect(subjects[0]).toBe(subjects[1]);
    expect(subjects[2]).toBe(subjects[3]);
    // Two inputs with the same label: two nodes, even in one chunk (as when each input is parsed).
    const two = new NTriplesChunkReader(
      [lines(`_:b1 ${P} "a" .\n${S} ${P} _:b1 .\n`), lines(`_:b1 ${P} "b" .\n`, { source: 'b.nt' })],
      { chunkTriples: 10, labelsPerInput: true },
    );
    const [both] = await chunksOf(two);
    const quads = new Parser({ format: 'N-Triples' }).parse(both!.text);
    expect(quads[0]!.subject.value).toBe(quads[1]!.object.value);
    expect(quads[2]!.subject.value).not.toBe(quads[0]!.subject.value);
    expect(two.blankNodeTriples).toBe(3);
  });

  it('drops a byte-order mark, ends a last line without newline, reads quads of other formats between line inputs', async () => {
    const quads = parseRdf(`@prefix s: <http://schema.org/> . ${S} s:name "ttl" .`, { format: 'turtle' });
    const reader = new NTriplesChunkReader(
      [
        lines(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${S} ${P} "a" .`)])),
        { kind: 'quads', source: 'c.ttl', quads },
        lines(`${S} ${P} "z" .\n`),
      ],
      { chunkTriples: 2, labelsPerInput: true },
    );
    const chunks = await chunksOf(reader);
    expect(chunks.map((c) => c.triples)).toEqual([2, 1]);
    expect(chunks.map((c) => c.text).join('')).toBe(`${S} ${P} "a" .\n${S} ${P} "ttl" .\n${S} ${P} "z" .\n`);
  });

  it('counts shared entities, finds the dataset, only counts chunks read without writing', async () => {
    const text =
      `<https://w3id.org/scholarly-rdf/dataset/d1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://rdfs.org/ns/void#Dataset> .\n` +
      `<https://orcid.org/0000-0002-1825-0097> ${P} "A" .\n<https://orcid.org/0000-0002-1825-0097> ${P} "B" .\n${S} ${P} "x" .\n`;
    const reader = new NTriplesChunkReader([lines(text)], { chunkTriples: 2 });
    const first = await reader.next(false, true);
    expect(first!.body.length).toBe(0);
    expect(reader.datasetIri).toBe('https://w3id.org/scholarly-rdf/dataset/d1');
    expect((await reader.next(true))!.body.toString()).toBe(
      `<https://orcid.org/0000-0002-1825-0097> ${P} "B" .\n${S} ${P} "x" .\n`,
    );
    expect(reader.sharedTriples).toBe(2);
    expect(await reader.next(true)).toBeUndefined();
  });

  it('sends a line of invalid UTF-8 as the parse-and-write path does (replacement characters)', async () => {
    const bytes = Buffer.concat([Buffer.from(`${S} ${P} "a`), Buffer.from([0xff, 0xfe]), Buffer.from('b" .\n')]);
    const [chunk] = await chunksOf(new NTriplesChunkReader([lines(bytes)], { chunkTriples: 2 }));
    expect(chunk!.text).toBe(`${S} ${P} "a\uFFFD\uFFFDb" .\n`);
  });

  it('refuses a line longer than the limit', async () => {
    const reader = new NTriplesChunkReader([lines(`${S} ${P} "${'x'.repeat(100)}" .\n`, { size: 16 })], {
      chunkTriples: 2,
      maxLineBytes: 50,
    });
    await expect(reader.next(true)).rejects.toMatchObject({
      code: 'parse',
      message: expect.stringContaining('line 1 is larger than 50 characters'),
    });
  });

  it('refuses a long line as soon as it is longer than the limit, whatever the reads, after the lines before it', async () => {
    const head = `${S} ${P} "a" .\n${S} ${P} "b" .\n`;
    for (const end of ['', '" .\n']) {
      const text = `${head}${S} ${P} "${'x'.repeat(5000)}${end}${S} ${P} "c" .\n`;
      for (const size of [1, 7, 333, 999, 1001, 5000]) {
        let read = 0;
        async function* counted(): AsyncGenerator<Uint8Array> {
          for await (const piece of pieces(text, size)) {
            read += piece.length;
            yield piece;
          }
        }
        const source: LoadSource = { kind: 'lines', source: 'long.nt', bytes: counted(), nquads: false };
        const reader = new NTriplesChunkReader([source], { chunkTriples: 1, maxLineBytes: 1000 });
        const chunks: string[] = [];
        const error = await (async () => {
          for (let c = await reader.next(true); c; c = await reader.next(true)) chunks.push(c.body.toString());
        })().catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: 'parse',
          message:
            'long.nt:3: line 3 is larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
        });
        expect(chunks.join('')).toBe(head);
        // Read no further than the read that made the line longer than the limit.
        expect(read, `${size}`).toBeLessThanOrEqual(head.length + 1001 + size);
      }
    }
  });
});
