import { createHash, type Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ToolkitError, ioError } from '../errors.js';

const gzipAsync = promisify(gzip);

/** Options of {@link CheckpointFile}. */
export interface CheckpointFileOptions {
  /** Write each commit as its own gzip member (concatenated members are one valid gzip stream). Defaults to false. */
  gzip?: boolean;
  /** Keep a SHA-256 of the bytes on disk. Defaults to true. */
  hash?: boolean;
  /** Fsync every commit (what a resumable file needs; a file put in place at the end can do without). Defaults to true. */
  sync?: boolean;
}

/**
 * An append-only file written in commits: `append()` buffers text, `commit()`
 * writes it (as one gzip member when gzipped), fsyncs, and only then advances
 * `length` and the running SHA-256. A state that records `length` after a
 * commit therefore always points at flushed data, and `resume()` truncates
 * whatever a killed process wrote after it.
 */
export class CheckpointFile {
  private pending: (string | Buffer)[] = [];
  private pendingBytes = 0;
  /** The commits under way, in order. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private position: number,
    private readonly hash: Hash | undefined,
    private readonly gzip: boolean,
    private readonly sync: boolean = true,
  ) {}

  /** Creates (or empties) the file. */
  static async create(path: string, options: CheckpointFileOptions = {}): Promise<CheckpointFile> {
    const handle = await openFile(path, 'w');
    return new CheckpointFile(
      path,
      handle,
      0,
      options.hash === false ? undefined : createHash('sha256'),
      options.gzip ?? false,
      options.sync ?? true,
    );
  }

  /**
   * Opens a file to continue at `length`: checks the file is at least that
   * long and, when `sha256` is given, that its first `length` bytes hash to
   * it (code `state-mismatch` otherwise), then cuts off anything after.
   */
  static async resume(
    path: string,
    length: number,
    sha256: string | undefined,
    options: CheckpointFileOptions = {},
  ): Promise<CheckpointFile> {
    const handle = await openFile(path, 'r+', length === 0);
    try {
      const { size } = await handle.stat();
      if (size < length) {
        throw new ToolkitError(
          `${path} is shorter (${size} bytes) than the saved state says (${length} bytes): it was changed since; start afresh with \`restart\` instead of \`resume\``,
          'state-mismatch',
        );
      }
      const hash = options.hash === false ? undefined : createHash('sha256');
      if (hash) {
        const buffer = Buffer.alloc(1 << 20);
        for (let off = 0; off < length;) {
          const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, length - off), off);
          if (bytesRead === 0) break;
          hash.update(buffer.subarray(0, bytesRead));
          off += bytesRead;
        }
        if (sha256 !== undefined && hash.copy().digest('hex') !== sha256) {
          throw new ToolkitError(
            `the first ${length} bytes of ${path} are not the ones the saved state recorded: the file was changed since; start afresh with \`restart\` instead of \`resume\``,
            'state-mismatch',
          );
        }
      }
      await handle.truncate(length);
      await handle.sync();
      return new CheckpointFile(path, handle, length, hash, options.gzip ?? false, options.sync ?? true);
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw ioError(err, path);
    }
  }

  /** Bytes committed so far. */
  get length(): number {
    return this.position;
  }

  /** SHA-256 (hex) of the committed bytes. */
  get sha256(): string | undefined {
    return this.hash?.copy().digest('hex');
  }

  /** Bytes (uncompressed) waiting for the next commit. */
  get pendingLength(): number {
    return this.pendingBytes;
  }

  /** Buffers text or bytes for the next commit. */
  append(data: string | Buffer): void {
    if (data.length === 0) return;
    this.pending.push(data);
    this.pendingBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  }

  /**
   * Writes what was appended since the last commit and fsyncs it (gzip
   * compresses off the main thread), after any commit still under way. A
   * write that fails (a full disk) throws `io` naming the file, here and at
   * every later commit; `length` then stays where it was, and what was
   * written past it is cut off by the next `resume()`.
   */
  async commit(): Promise<void> {
    if (this.pending.length > 0) {
      const plain = Buffer.concat(this.pending.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
      this.pending = [];
      this.pendingBytes = 0;
      this.queue = this.queue.then(() => this.writeCommit(plain));
    }
    await this.queue;
  }

  async close(): Promise<void> {
    // A commit under way finishes first (its failure was or will be thrown by a commit()).
    await this.queue.catch(() => undefined);
    try {
      await this.handle.close();
    } catch (err) {
      throw ioError(err, this.path);
    }
  }

  private async writeCommit(plain: Buffer): Promise<void> {
    const bytes = this.gzip ? await gzipAsync(plain) : plain;
    try {
      let off = 0;
      while (off < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, off, bytes.length - off, this.position + off);
        off += bytesWritten;
      }
      if (this.sync) await this.handle.sync();
    } catch (err) {
      throw ioError(err, this.path);
    }
    this.hash?.update(bytes);
    this.position += bytes.length;
  }
}

async function openFile(path: string, flags: 'w' | 'r+', createIfMissing = false): Promise<FileHandle> {
  try {
    return await open(path, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && createIfMissing)
      return open(path, 'w').catch((e: unknown) => Promise.reject(ioError(e, path, 'create')));
    if (code === 'ENOENT' && flags === 'r+') {
      throw new ToolkitError(
        `${path} is missing but the saved state says it was started: start afresh with \`restart\` instead of \`resume\``,
        'state-mismatch',
        { cause: err },
      );
    }
    throw ioError(err, path, flags === 'w' ? 'create' : 'open');
  }
}
