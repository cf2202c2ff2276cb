import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { groupNTriplesRecords, NTriplesLineGrouper } from '../../src/group/groupNTriplesRecords.js';
import type { NTriplesRecordGroup } from '../../src/group/groupNTriplesRecords.js';
import { groupRecords } from '../../src/group/groupRecords.js';
import { parseRecordText } from '../../src/group/RecordText.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { fixtureQuads } from '../shacl/shapeCases.js';

async function* chunksOf(text: string, sizes: number[]): AsyncGenerator<string> {
  let i = 0;
  for (let k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length]!;
    yield text.slice(i, i + n);
    i += n;
  }
}

async function groupsOf(text: string, sizes = [1 << 16], options: Parameters<typeof groupNTriplesRecords>[1] = {}) {
  const out: NTriplesRecordGroup[] = [];
  const split: string[] = [];
  for await (const g of groupNTriplesRecords(chunksOf(text, sizes), {
    ...options,
    onSplitRecord: (k) => split.push(k),
  }))
    out.push(g);
  return { out, split };
}

const nt = (quads: RDF.Quad[]) => {
  const w = serializerFor('ntriples').createWriter();
  return w.start() + w.write(quads) + w.end();
};
const sorted = (quads: RDF.Quad[]) =>
  quads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`).sort();

describe('groupNTriplesRecords', () => {
  it('cuts a dump into the same records, with the same quads, as groupRecords over its parsed quads, wherever the chunks end', async () => {
    const quads = [...generateRecords(25, 7)].flatMap((r) => mapRecord(normalizeRecord(r)).quads);
    quads.push(...fixtureQuads('dataset-description.ttl'));
    const text = nt(quads);
    const expected: { key: string | undefined; quads: string[] }[] = [];
    for await (const g of groupRecords(new Parser({ format: 'application/n-triples' }).parse(text)))
      expected.push({ key: g.key, quads: sorted(g.quads) });
    // The 25 records (their shared journals, publishers, persons with them), then the description of no record.
    expect(expected.map((g) => g.key === undefined)).toEqual([...Array<boolean>(25).fill(false), true]);
    for (const sizes of [[1 << 16], [1], [7, 3, 1000], [4096]]) {
      const { out, split } = await groupsOf(text, sizes);
      expect(out.map((g) => ({ key: g.key, quads: sorted(parseRecordText(g)) }))).toEqual(expected);
      expect(split).toEqual([]);
    }
  });

  it('puts the lines of shared nodes with the record being read; those before any record and from the dataset description on are of no record', async () => {
    const line = (subject: string, value: string) => `<${subject}> <http://schema.org/name> "${value}" .`;
    const journal = 'https://w3id.org/scholarly-rdf/journal/11306';
    const text = [
      line(journal, 'before any record'),
      line('https://doi.org/10.1/a', 'A'),
      line(journal, 'of a'),
      line('https://orcid.org/0000-0002-1825-0097', 'of a'),
      line('https://doi.org/10.1/b', 'B'),
      line('https://w3id.org/scholarly-rdf/publisher/springer', 'of b'),
      line('https://w3id.org/scholarly-rdf/dump/0123456789abcdef', 'the dump'),
      line('http://api.example.org/meta/v2/json', 'the notice'),
      line(journal, 'after the description'),
    ].join('\n');
    const { out } = await groupsOf(text, [7]);
    expect(out.map((g) => [g.key, g.lines])).toEqual([
      ['10.1/a', [2, 3, 4]],
      ['10.1/b', [5, 6]],
      [undefined, [1, 7, 8, 9]],
    ]);
  });

  it('keeps the input line of every line, across comments, blank lines, CRLF and lone CR', async () => {
    const text = [
      '# a comment',
      '<https://doi.org/10.1/a> <http://schema.org/name> "A" .',
      '',
      '   ',
      '<https://w3id.org/scholarly-rdf/doi/10.1/a#author-1> <http://schema.org/name> "P" .\r',
      '<https://doi.org/10.1/b> <http://schema.org/name> "B" .\r<https://doi.org/10.1/b> <http://schema.org/genre> "G" .',
      '_:x <http://schema.org/name> "other" .',
      '\t<https://doi.org/10.1/a> <http://schema.org/genre> "late but in the window" .',
    ].join('\n');
    const { out } = await groupsOf(text, [5]);
    expect(out.map((g) => [g.key, g.lines])).toEqual([
      ['10.1/a', [2, 5, 9]],
      ['10.1/b', [6, 7]],
      [undefined, [8]],
    ]);
  });

  it('drops RDF 1.2 version directives, which state nothing, and keeps a malformed one for the parser to report', async () => {
    const record = '<https://doi.org/10.1/a> <http://schema.org/name> "A" .';
    const { out } = await groupsOf(`VERSION "1.2"\n${record}\n  VERSION '1.2-basic' # c\n`);
    expect(out.map((g) => [g.key, g.lines])).toEqual([['10.1/a', [2]]]);
    const broken = await groupsOf(`${record}\nVERSION 1.2\n`);
    expect(broken.out.map((g) => [g.key, g.lines])).toEqual([['10.1/a', [1, 2]]]);
    expect(() => parseRecordText(broken.out[0]!)).toThrow(/^<input>:2: invalid N-Triples/);
  });

  it('decodes \\u escapes of subject IRIs before taking the record key', async () => {
    const { out } = await groupsOf(
      '<https://doi.org/10.1/\\u0041> <http://schema.org/name> "A" .\n<https://doi.org/10.1/A> <http://schema.org/genre> "G" .\n',
    );
    expect(out.map((g) => g.key)).toEqual(['10.1/A']);
    expect(parseRecordText(out[0]!).map((q) => q.subject.value)).toEqual([
      'https://doi.org/10.1/A',
      'https://doi.org/10.1/A',
    ]);
  });

  it('reads each subject anew when it changes, even to one of the same length, and a line with none goes with the line before', async () => {
    const line = (doi: string, o = 'x') => `<https://doi.org/${doi}> <http://schema.org/name> "${o}" .`;
    const text = [
      line('10.1/a'),
      line('10.1/a', 'y'),
      line('10.1/b'),
      '<urn:x <http://schema.org/name> "z" .',
      line('10.1/b', 'w'),
      line('10.1/a'),
    ].join('\n');
    const { out } = await groupsOf(text, [1 << 16], { window: 1 });
    expect(out.map((g) => [g.key, g.lines])).toEqual([
      ['10.1/a', [1, 2]],
      ['10.1/b', [3, 4, 5]],
      ['10.1/a', [6]],
    ]);
  });

  it('reports a record whose lines come back after the window, as groupRecords does', async () => {
    const line = (doi: string) => `<https://doi.org/${doi}> <http://schema.org/name> "x" .`;
    const text = ['10.1/a', '10.1/b', '10.1/c', '10.1/a'].map(line).join('\n');
    const { out, split } = await groupsOf(text, [1 << 16], { window: 1 });
    expect(out.map((g) => g.key)).toEqual(['10.1/a', '10.1/b', '10.1/c', '10.1/a']);
    expect(split).toEqual(['10.1/a']);
  });

  it('reads N-Quads, graphs kept by the parser', async () => {
    const text = '<https://doi.org/10.1/a> <http://schema.org/name> "A" <urn:g> .\n';
    const { out } = await groupsOf(text, [3], { format: 'nquads' });
    const quads = parseRecordText(out[0]!);
    expect(
      quads[0]!.equals(
        DataFactory.quad(
          DataFactory.namedNode('https://doi.org/10.1/a'),
          DataFactory.namedNode('http://schema.org/name'),
          DataFactory.literal('A'),
          DataFactory.namedNode('urn:g'),
        ),
      ),
    ).toBe(true);
  });
});

describe('groupNTriplesRecords on broken lines', () => {
  it('keeps a line with an unclosed subject IRI with the record before it, so that its error comes in its turn', async () => {
    const text =
      '<https://doi.org/10.1/a> <http://schema.org/name> "A" .\n<https://doi.org/10.1/a <http://schema.org/name> "B" .\n';
    const { out } = await groupsOf(text);
    expect(out.map((g) => [g.key, g.lines])).toEqual([['10.1/a', [1, 2]]]);
    expect(() => parseRecordText(out[0]!)).toThrow(/^<input>:2: invalid N-Triples/);
  });
});

describe('groupNTriplesRecords on lone-CR line ends', () => {
  it('passes records on as it reads, not at the end of the input', async () => {
    const line = (i: number) => `<https://doi.org/10.1/r${i}> <http://schema.org/name> "x" .\r`;
    let read = 0;
    async function* chunks() {
      for (let i = 0; i < 50; i++) {
        read++;
        yield line(i);
      }
    }
    const readWhenYielded: number[] = [];
    const keys: (string | undefined)[] = [];
    for await (const g of groupNTriplesRecords(chunks())) {
      readWhenYielded.push(read);
      keys.push(g.key);
    }
    expect(keys).toEqual(Array.from({ length: 50 }, (_, i) => `10.1/r${i}`));
    expect(readWhenYielded[0]).toBeLessThan(10);
  });
});

describe('groupNTriplesRecords on long lines', () => {
  const record = (i: number) => `<https://doi.org/10.1/r${i}> <http://schema.org/name> "x" .`;

  it("refuses a line longer than maxDocumentChars with the parsers' error, naming the input and the line", async () => {
    const long = `<https://doi.org/10.1/big> <http://schema.org/abstract> "${'a'.repeat(2000)}" .`;
    const text = `${record(1)}\n${record(2)}\n${long}\n${record(3)}\n`;
    for (const sizes of [[1 << 16], [64], [7, 300]]) {
      const err = await groupsOf(text, sizes, { source: 'big.nt', maxDocumentChars: 1000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).message).toBe(
        'big.nt:3: line 3 is larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
      );
    }
    // Within the limit (the default, or one as long as the line), the same text is read whole.
    for (const options of [{}, { maxDocumentChars: long.length }]) {
      const { out } = await groupsOf(text, [7, 300], options);
      expect(out.map((g) => [g.key, g.lines])).toEqual([
        ['10.1/r1', [1]],
        ['10.1/r2', [2]],
        ['10.1/big', [3]],
        ['10.1/r3', [4]],
      ]);
      expect(out[2]!.text).toBe(`${long}\n`);
    }
  });

  it('stops reading as soon as the line is longer, without waiting for its end', async () => {
    let read = 0;
    async function* chunks() {
      yield `${record(1)}\n<https://doi.org/10.1/big> <http://schema.org/abstract> "`;
      for (let i = 0; i < 1000; i++) {
        read++;
        yield 'a'.repeat(100);
      }
      yield '" .\n';
    }
    const err = await (async () => {
      for await (const _ of groupNTriplesRecords(chunks(), { source: 'stream.nt', maxDocumentChars: 5000 })) void _;
    })().catch((e: unknown) => e);
    expect((err as ParseError).message).toMatch(/^stream\.nt:2: line 2 is larger than 5000 characters/);
    expect(read).toBeLessThan(60);
  });

  it('never holds more of a line than the limit, and refuses it at the piece that passes the limit, whatever the pieces', async () => {
    const max = 1000;
    const long = `<https://doi.org/10.1/big> <http://schema.org/abstract> "${'\u00e9'.repeat(3000)}`;
    for (const end of ['', '" .\n', '" .\r\n']) {
      const head = `${record(1)}\n${record(2)}\n`;
      const text = `${head}${long}${end}${record(3)}\n`;
      for (const size of [1, 7, 333, 999, 1001, 5000]) {
        const lines = new NTriplesLineGrouper({ source: 'big.nt', maxDocumentChars: max, window: 1 });
        const groups: NTriplesRecordGroup[] = [];
        let at = 0;
        let error: unknown;
        for (; at < text.length && error === undefined; at += size) {
          try {
            groups.push(...lines.addText(text.slice(at, at + size)));
          } catch (err) {
            error = err;
          }
          expect(lines.pendingChars).toBeLessThanOrEqual(max);
        }
        expect((error as ParseError).message).toBe(
          'big.nt:3: line 3 is larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
        );
        // Refused by the piece that made the line longer than the limit, not at its end.
        expect(at - size).toBeLessThanOrEqual(head.length + max);
        expect(at).toBeGreaterThan(head.length + max);
        // The lines before it are read as they are (the groups a piece completed before its error are not given).
        const before = [['10.1/r1', [1], `${record(1)}\n`]];
        expect(groups.map((g) => [g.key, g.lines, g.text])).toEqual(before.slice(0, groups.length));
        if (size < head.length) expect(groups.length).toBe(1);
      }
    }
  });

  it('keeps a long line cut into many chunks, and a CR line end cut from its LF, as they are', async () => {
    const long = `<https://doi.org/10.1/big> <http://schema.org/abstract> "${'b'.repeat(5000)}" .`;
    const text = `${record(1)}\r\n${long}\r\n${record(2)}\r\n`;
    for (const sizes of [[3], [1, 64], [5061]]) {
      const { out } = await groupsOf(text, sizes);
      expect(out.map((g) => [g.key, g.lines, g.text])).toEqual([
        ['10.1/r1', [1], `${record(1)}\n`],
        ['10.1/big', [2], `${long}\n`],
        ['10.1/r2', [3], `${record(2)}\n`],
      ]);
    }
  });
});
