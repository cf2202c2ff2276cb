import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
  createReadStream,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutput } from '../../src/output/openOutput.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'open-output-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function write(path: string, text: string): Promise<void> {
  const out = await openOutput(path, new PassThrough());
  out.stream.write(text);
  await out.close();
}

describe('openOutput', () => {
  it('puts the file in place only on close; a discarded run leaves what was there', async () => {
    const path = join(dir, 'out.ttl');
    writeFileSync(path, 'before\n');
    const out = await openOutput(path, new PassThrough());
    out.stream.write('half');
    expect(readFileSync(path, 'utf8')).toBe('before\n');
    await out.discard();
    expect(readFileSync(path, 'utf8')).toBe('before\n');
    expect(readdirSync(dir)).toEqual(['out.ttl']);
    await write(path, 'after\n');
    expect(readFileSync(path, 'utf8')).toBe('after\n');
  });

  it("writes through a symbolic link to its target and keeps an existing file's mode", async () => {
    const target = join(dir, 'real.nt');
    writeFileSync(target, 'old\n');
    chmodSync(target, 0o640);
    const link = join(dir, 'link.nt');
    symlinkSync(target, link);
    await write(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('creates the file a dangling symbolic link points to, keeping the link', async () => {
    mkdirSync(join(dir, 'real'));
    const link = join(dir, 'dangling.nt');
    symlinkSync('real/out.nt', link);
    await write(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 'out.nt'), 'utf8')).toBe('new\n');
  });

  it('refuses a directory before anything is written', async () => {
    mkdirSync(join(dir, 'adir'));
    await expect(openOutput(join(dir, 'adir'), new PassThrough())).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining('is a directory'),
    });
    expect(readdirSync(dir)).toEqual(['adir']);
  });

  it('writes into a pipe in place: the FIFO stays a FIFO, nothing is left beside it', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo)
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    await write(fifo, 'through the pipe\n');
    expect(await read).toBe('through the pipe\n');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });
});
