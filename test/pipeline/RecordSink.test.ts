import type * as RDF from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { RecordSink } from '../../src/pipeline/RecordSink.js';
import type { Rejection } from '../../src/pipeline/Rejection.js';
import type { ReadItem } from '../../src/record/readRecords.js';
import type { RecordWriter } from '../../src/serialize/QuadSerializer.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { parseNTriples, parseRdfXml } from '../helpers/rdf.js';

const item = (raw: unknown, index: number): ReadItem => ({
  kind: 'record',
  raw,
  source: 'in.jsonl',
  index,
  line: index,
});
const subjects = (quads: readonly RDF.Quad[]) =>
  [...new Set(quads.filter((q) => q.subject.value.startsWith('https://doi.org/')).map((q) => q.subject.value))].sort();

describe('RecordSink: every item is written or rejected with a reason', () => {
  it('rejects what cannot be mapped, a repeated DOI (any case) and unreadable input, in order, and writes the rest', async () => {
    const rejected: Rejection[] = [];
    const sink = new RecordSink(serializerFor('ntriples').createWriter(), { onRejected: (r) => void rejected.push(r) });
    const items: ReadItem[] = [
      item({ doi: '10.1000/a', title: 'A' }, 1),
      item({ title: 'no DOI' }, 2),
      { kind: 'problem', source: 'in.jsonl', index: 3, line: 3, reason: 'not valid JSON', excerpt: '{"doi":' },
      item({ doi: '10.1000/A', title: 'the same DOI in capitals' }, 4),
      item({ doi: '10.1000/b', title: 'B' }, 5),
    ];
    const text = sink.start() + (await sink.take(items)) + sink.end();
    expect(subjects(parseNTriples(text))).toEqual(['https://doi.org/10.1000/a', 'https://doi.org/10.1000/b']);
    expect(rejected.map((r) => [r.index, r.code, r.field])).toEqual([
      [2, 'record-invalid', 'doi'],
      [3, 'unreadable', '(input)'],
      [4, 'duplicate-doi', 'doi'],
    ]);
    expect(rejected[2]!.record).toEqual({ doi: '10.1000/A', title: 'the same DOI in capitals' });
    expect(rejected[1]!.excerpt).toBe('{"doi":');
    expect({ read: sink.read, written: sink.written, rejected: sink.rejected }).toEqual({
      read: 5,
      written: 2,
      rejected: 3,
    });
  });

  it('gives the UTF-8 bytes of the text as a binary string with `binary` (by writeBinary, else the text encoded)', async () => {
    const items = [item({ doi: '10.1000/ä', title: 'Grüße, 中文 🧪' }, 1), item({ doi: '10.1000/b', title: 'B' }, 2)];
    for (const format of ['ntriples', 'turtle'] as const) {
      const text = await new RecordSink(serializerFor(format).createWriter()).take(items);
      const sink = new RecordSink(serializerFor(format).createWriter(), { binary: true });
      expect(sink.binary).toBe(true);
      const binary = await sink.take(items);
      expect(binary).not.toMatch(/[^\u0000-\u00FF]/);
      expect(Buffer.from(binary, 'latin1').toString('utf8')).toBe(text);
    }
  });

  it('a record the format refuses is rejected (serialization, field (output)) and the document stays whole', async () => {
    const inner = serializerFor('rdfxml').createWriter();
    // A writer that refuses the record of one DOI as RDF/XML refuses what it cannot carry.
    const writer: RecordWriter = {
      start: () => inner.start(),
      continueAfter: (n) => inner.continueAfter(n),
      end: () => inner.end(),
      write: (quads) => {
        if (quads.some((q) => q.subject.value.endsWith('/bad')))
          throw new ToolkitError('RDF/XML: cannot carry this (subject <https://doi.org/10.1000/bad>)', 'serialization');
        return inner.write(quads);
      },
    };
    const rejected: Rejection[] = [];
    const sink = new RecordSink(writer, { format: 'rdfxml', onRejected: (r) => void rejected.push(r) });
    const text =
      sink.start() +
      (await sink.take([
        item({ doi: '10.1000/a', title: 'A' }, 1),
        item({ doi: '10.1000/bad', title: 'B' }, 2),
        item({ doi: '10.1000/c', title: 'C' }, 3),
      ])) +
      sink.end();
    expect(subjects(await parseRdfXml(text))).toEqual(['https://doi.org/10.1000/a', 'https://doi.org/10.1000/c']);
    expect(rejected).toMatchObject([
      {
        index: 2,
        code: 'serialization',
        field: '(output)',
        recordId: '10.1000/bad',
        reason: expect.stringContaining('cannot be written as RDF/XML'),
      },
    ]);
  });

  it('lets other errors of the writer through (a failed run, not a rejection)', async () => {
    const writer: RecordWriter = {
      start: () => '',
      continueAfter: () => undefined,
      end: () => '',
      write: () => {
        throw new Error('disk on fire');
      },
    };
    await expect(new RecordSink(writer).take([item({ doi: '10.1000/a' }, 1)])).rejects.toThrow('disk on fire');
  });

  it('rejects a record with violations (validation-failed, the first violation as the reason, all kept)', async () => {
    const violation = {
      severity: 'Violation',
      shape: 'srsh:Work-name',
      focusNode: '<https://doi.org/10.1000/b>',
      path: 'schema:name',
      message: 'needs a name',
    };
    const rejected: Rejection[] = [];
    const sink = new RecordSink(serializerFor('ntriples').createWriter(), {
      validation: {
        batchSize: 2,
        violations: async (records) =>
          records.map((quads) => (subjects(quads).includes('https://doi.org/10.1000/b') ? [violation, violation] : [])),
      },
      onRejected: (r) => void rejected.push(r),
    });
    expect(sink.batchSize).toBe(2);
    const text = await sink.take([
      item({ doi: '10.1000/a', title: 'A' }, 1),
      item({ doi: '10.1000/b', title: 'B' }, 2),
    ]);
    expect(subjects(parseNTriples(text))).toEqual(['https://doi.org/10.1000/a']);
    expect(rejected).toMatchObject([
      {
        code: 'validation-failed',
        field: 'schema:name',
        violations: [violation, violation],
        reason:
          'does not conform to the shapes: Violation srsh:Work-name <https://doi.org/10.1000/b> schema:name: needs a name (and 1 more)',
      },
    ]);
  });

  it('a rejected record leaves its DOI to a later valid copy', async () => {
    const rejected: Rejection[] = [];
    const sink = new RecordSink(serializerFor('ntriples').createWriter(), {
      validation: {
        batchSize: 1,
        violations: async (records) =>
          records.map((quads) =>
            quads.some((q) => q.object.value === 'bad')
              ? [{ severity: 'Violation', shape: 's', focusNode: 'f', message: 'm' }]
              : [],
          ),
      },
      onRejected: (r) => void rejected.push(r),
    });
    await sink.take([item({ doi: '10.1000/a', title: 'bad' }, 1)]);
    const text = await sink.take([item({ doi: '10.1000/a', title: 'good' }, 2)]);
    expect(parseNTriples(text).some((q) => q.object.value === 'good')).toBe(true);
    expect(rejected.map((r) => r.code)).toEqual(['validation-failed']);
  });

  it('takes the next items before the last answer: each validated at once, written after those before, in order; a failure fails the calls after it', async () => {
    const asked: string[][] = [];
    const answers: (() => void)[] = [];
    const titleOf = (quads: readonly RDF.Quad[]) =>
      quads.find((q) => q.predicate.value === 'http://schema.org/name')?.object.value ?? '';
    const rejected: Rejection[] = [];
    const written: string[] = [];
    const sink = new RecordSink(serializerFor('ntriples').createWriter(), {
      onRejected: (r) => {
        rejected.push(r);
        if (r.recordId === '10.1000/stop') throw new Error('stop here');
      },
      onWritten: (w) => void written.push(w.mapped.doi),
      validation: {
        batchSize: 2,
        // Answered when the test says: the second batch's answer comes first.
        violations: (records) => {
          asked.push(records.map(titleOf));
          return new Promise((resolve) =>
            answers.push(() =>
              resolve(
                records.map((r) =>
                  titleOf(r) === 'bad' ? [{ severity: 'Violation', shape: 's', focusNode: 'f', message: 'no' }] : [],
                ),
              ),
            ),
          );
        },
      },
    });
    const first = sink.take([item({ doi: '10.1000/a', title: 'a' }, 1), item({ doi: '10.1000/b', title: 'bad' }, 2)]);
    const second = sink.take([item({ doi: '10.1000/c', title: 'c' }, 3)]);
    // Both batches were mapped and handed to the validation before any answer.
    expect(asked).toEqual([['a', 'bad'], ['c']]);
    answers[1]!();
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual([]);
    answers[0]!();
    const texts = [await first, await second];
    expect(written).toEqual(['10.1000/a', '10.1000/c']);
    expect(texts.map((t) => subjects(parseNTriples(t)))).toEqual([
      ['https://doi.org/10.1000/a'],
      ['https://doi.org/10.1000/c'],
    ]);
    expect(rejected.map((r) => r.index)).toEqual([2]);
    // A call that fails (the rejection handler throws) fails the calls taken after it, which write nothing.
    const failing = sink.take([item({ doi: '10.1000/stop', title: 'bad' }, 4)]);
    const after = sink.take([item({ doi: '10.1000/d', title: 'd' }, 5)]);
    answers[3]!();
    answers[2]!();
    await expect(failing).rejects.toThrow('stop here');
    await expect(after).rejects.toThrow('stop here');
    expect(written).toEqual(['10.1000/a', '10.1000/c']);
  });
});
