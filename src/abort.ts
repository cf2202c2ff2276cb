import { ToolkitError } from './errors.js';

/** The error to throw when `signal` aborted: its reason if that is a ToolkitError, else an `aborted` error. */
export function abortError(signal: AbortSignal): ToolkitError {
  const reason: unknown = signal.reason;
  if (reason instanceof ToolkitError) return reason;
  return new ToolkitError('cancelled', 'aborted', { cause: reason });
}

/** Waits `ms` milliseconds; rejects with {@link abortError} as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
