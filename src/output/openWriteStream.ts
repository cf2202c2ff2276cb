import { createWriteStream, type WriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type ToolkitError, ioError } from '../errors.js';

/**
 * Opens a file for writing as a stream, and waits until it is open. Every
 * failure is an `io` error naming `name` (the file's name for messages;
 * defaults to `path`) and `what` it is: opening (a folder that is not there,
 * refused before any work is done) and any later write or the close (a full
 * disk: `cannot write out.nt: no space left on the device (ENOSPC)`). That
 * error is the stream's `errored` (so `writeText` throws it) and the
 * rejection of `finished(stream)`, never an unhandled `'error'` event. The
 * stream has ended when the file is closed.
 */
export async function openWriteStream(path: string, options: { name?: string; what?: string } = {}): Promise<Writable> {
  const name = options.name ?? path;
  const file = createWriteStream(path);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(ioError(err, name, 'create', options.what));
    file.once('error', onError);
    file.once('open', () => {
      file.off('error', onError);
      resolve();
    });
  });
  const stream = new FileWriter(file, (err) => ioError(err, name, 'write', options.what));
  // Errors are read from `errored` and `finished()`; an `'error'` event with no listener would end the process.
  file.on('error', () => undefined);
  stream.on('error', () => undefined);
  return stream;
}

/** A writable over a file stream whose failures are `io` errors naming the file. */
class FileWriter extends Writable {
  constructor(
    private readonly file: WriteStream,
    private readonly fail: (err: Error) => ToolkitError,
  ) {
    super({ highWaterMark: 1 << 16 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.file.write(chunk, (err) => callback(err ? this.fail(err) : null));
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.file.end();
    finished(this.file).then(
      () => callback(),
      (err: Error) => callback(this.fail(err)),
    );
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    if (this.file.closed) {
      callback(err);
      return;
    }
    this.file.once('close', () => callback(err)).destroy();
  }
}
