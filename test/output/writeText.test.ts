import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeText } from '../../src/output/writeText.js';

/** A stream that never drains: every write asks to wait. */
const stuck = () => new Writable({ highWaterMark: 1, write: () => undefined });

describe('writeText', () => {
  it('writes, and waits while the stream asks to', async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    const chunks: string[] = [];
    const written = writeText(out, 'a longer text than four bytes');
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    await written;
    expect(chunks.join('')).toBe('a longer text than four bytes');
  });

  it('rejects, instead of waiting for ever, when the stream fails, closes or the run is aborted', async () => {
    const failing = stuck();
    failing.on('error', () => undefined);
    const a = writeText(failing, 'x');
    failing.destroy(new Error('disk gone'));
    await expect(a).rejects.toThrow('disk gone');

    const closing = stuck();
    const b = writeText(closing, 'x');
    closing.destroy();
    await expect(b).rejects.toMatchObject({ code: 'io' });

    const controller = new AbortController();
    const c = writeText(stuck(), 'x', controller.signal);
    controller.abort();
    await expect(c).rejects.toMatchObject({ code: 'aborted' });
  });

  it('refuses at once to write to a stream that has failed or ended', async () => {
    const ended = new PassThrough();
    ended.end();
    await expect(writeText(ended, 'x')).rejects.toMatchObject({ code: 'io' });
  });
});
