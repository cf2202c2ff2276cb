import type { Writable } from 'node:stream';
import { ToolkitError } from '../errors.js';

/**
 * Writes text (or bytes) to a stream and waits while the stream asks to (backpressure).
 * Rejects, instead of waiting for ever, when the stream fails or closes
 * before it drains (a closed pipe: `… | head`) and when `signal` aborts
 * (code `aborted`). An empty text is not written. `done` is called once the
 * stream has taken the text (its write callback: the bytes may be reused),
 * not when writing failed. Defaults to none.
 */
export async function writeText(
  out: Writable,
  text: string | Uint8Array,
  signal?: AbortSignal,
  done?: () => void,
): Promise<void> {
  if (signal?.aborted) throw abortError(signal);
  if (out.errored) throw out.errored;
  if (out.destroyed || out.writableEnded) throw closedError();
  if (text.length === 0) {
    done?.();
    return;
  }
  if (out.write(text, done ? (err) => void (err ? undefined : done()) : undefined)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error): void => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    const onError = (err: Error): void => done(err);
    const onClose = (): void => done(out.errored ?? closedError());
    const onAbort = (): void => done(abortError(signal!));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
    signal?.addEventListener('abort', onAbort);
  });
}

function abortError(signal: AbortSignal): ToolkitError {
  return new ToolkitError('writing was cancelled', 'aborted', { cause: signal.reason });
}

function closedError(): ToolkitError {
  return new ToolkitError('the output was closed before everything was written', 'io');
}
