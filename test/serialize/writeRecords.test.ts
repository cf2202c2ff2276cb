import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeRecords } from '../../src/serialize/writeRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { ToolkitError } from '../../src/errors.js';
import { expectIsomorphic, parseNTriples, parseTurtle } from '../helpers/rdf.js';
import { recordQuads } from './quads.js';

/** A slow sink with a tiny buffer: it asks for backpressure on every write. */
class SlowSink extends Writable {
  chunks: string[] = [];
  maxPending = 0;
  pending = 0;
  constructor(private readonly failAfter = Infinity) {
    super({ highWaterMark: 1024, decodeStrings: false });
  }
  override _write(chunk: string, _enc: BufferEncoding, cb: (e?: Error) => void): void {
    this.pending++;
    this.maxPending = Math.max(this.maxPending, this.writableLength);
    setImmediate(() => {
      this.pending--;
      if (this.chunks.length >= this.failAfter) return cb(new Error('disk full'));
      this.chunks.push(String(chunk));
      cb();
    });
  }
}

function* groups(n: number) {
  for (let i = 0; i < n; i++) yield recordQuads(`10.1000/r${i}`, 2);
}

describe('writeRecords', () => {
  it('writes start, every group and end, in chunks of about chunkSize, counting groups and quads', async () => {
    const out = new SlowSink();
    const result = await writeRecords(groups(200), serializerFor('turtle').createWriter(), out, { chunkSize: 16384, end: true });
    expect(result.groups).toBe(200);
    expect(result.quads).toBe(200 * recordQuads('10.1/x', 2).length);
    const text = out.chunks.join('');
    expectIsomorphic(parseTurtle(text), [...groups(200)].flat());
    // every write but the last is at least chunkSize, and none is much bigger than chunkSize + one record
    for (const c of out.chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(16384);
    expect(Math.max(...out.chunks.map((c) => c.length))).toBeLessThan(16384 + 20000);
    // backpressure was honoured: never more than one chunk waiting in the sink
    expect(out.maxPending).toBeLessThan(16384 + 20000);
    expect(out.writableFinished).toBe(true);
  });

  it('reads async iterables too and leaves the stream open unless asked to end it', async () => {
    async function* agen() {
      yield* groups(3);
    }
    const out = new SlowSink();
    const result = await writeRecords(agen(), serializerFor('ntriples').createWriter(), out);
    expect(result.groups).toBe(3);
    expect(out.writableEnded).toBe(false);
    await new Promise((r) => out.end(r));
    expectIsomorphic(parseNTriples(out.chunks.join('')), [...groups(3)].flat());
  });

  it('stops with code aborted when the signal fires', async () => {
    const controller = new AbortController();
    let n = 0;
    function* endless() {
      for (;;) {
        if (++n === 50) controller.abort();
        yield recordQuads(`10.1000/r${n}`, 1);
      }
    }
    const error = await writeRecords(endless(), serializerFor('ntriples').createWriter(), new SlowSink(), {
      signal: controller.signal,
      chunkSize: 1024,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ToolkitError);
    expect(error.code).toBe('aborted');
    expect(n).toBeLessThan(60);
  });

  it('rejects with the stream error when the output fails', async () => {
    const error = await writeRecords(groups(500), serializerFor('ntriples').createWriter(), new SlowSink(2), { chunkSize: 1024 }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('disk full');
  });

  it('rejects with the serialisation error of a bad group', async () => {
    const bad = [[...recordQuads('10.1/a', 0).slice(0, 2)], recordQuads('10.1/a b', 0)];
    const error = await writeRecords(bad, serializerFor('ntriples').createWriter(), new SlowSink()).catch((e) => e);
    expect(error).toBeInstanceOf(ToolkitError);
    expect(error.code).toBe('serialization');
  });
});
