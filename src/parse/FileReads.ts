import { close, open, read } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const closeFile = promisify(close);
const readFile = promisify(read);

/** Buffers given back and kept for reads: the reads in flight between the file and its reader (one, and one ahead). */
const KEPT = 4;

/**
 * The reads of a file, into buffers its reader gives back ({@link release})
 * once it holds no part of them: they are read into again, not left to the
 * garbage collector. A read not given back is left to the collector, as a
 * read of `fs.createReadStream` is.
 *
 * Why: a read is an external buffer, which V8 frees only when its collector
 * runs, and that runs as the young generation fills, not as reads are
 * dropped. A reader that drops what it reads (the bytes of a line over its
 * limit) made garbage as fast as the disk gave it: `convert --jobs 1` of a
 * 32 MB line refused at 4 MiB peaked 7 to 34 MB over the run without the
 * line, with the collector's timing.
 */
export class FileReads {
  private readonly kept: Buffer[] = [];
  /** The buffer each read given out and not back is a view of. */
  private readonly out = new WeakMap<Uint8Array, Buffer>();

  /** `size`: the bytes of a read. */
  constructor(
    private readonly path: string,
    private readonly size: number,
  ) {}

  /**
   * Opens the file (failing as `fs.open` does: ENOENT, EACCES, EISDIR), and its reads from byte `start` on (defaults
   * to 0), the last one short.
   */
  async open(start = 0): Promise<AsyncGenerator<Buffer>> {
    const fd = await openFile(this.path, 'r');
    return this.reads(fd, start);
  }

  /** Gives back a read no part of which is held any longer: its buffer is read into again. Anything else is ignored. */
  release(chunk: Uint8Array): void {
    const buffer = this.out.get(chunk);
    if (buffer === undefined) return;
    this.out.delete(chunk);
    if (this.kept.length < KEPT) this.kept.push(buffer);
  }

  private async *reads(fd: number, start: number): AsyncGenerator<Buffer> {
    try {
      for (let position = start; ;) {
        const buffer = this.kept.pop() ?? Buffer.allocUnsafe(this.size);
        const { bytesRead } = await readFile(fd, buffer, 0, buffer.length, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        const chunk = buffer.subarray(0, bytesRead);
        this.out.set(chunk, buffer);
        yield chunk;
      }
    } finally {
      await closeFile(fd);
    }
  }
}
