import { Buffer } from 'node:buffer';
import { ToolkitError } from '../errors.js';

/** Parts of the output as one buffer. */
export function joined(parts: Buffer[]): Buffer {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Where the line `lines` line breaks into `bytes` starts. */
export function lineStart(bytes: Uint8Array, lines: number): number {
  let at = 0;
  for (let n = 0; n < lines; n++) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) throw new ToolkitError(`a part has fewer than ${lines} line breaks`, 'internal');
    at = nl + 1;
  }
  return at;
}

/** Two byte arrays as one, in a buffer of its own (to transfer). */
export function concatenated(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = Buffer.allocUnsafeSlow(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** `head`, then the chunks of `rest`. */
export async function* prepended(head: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield head;
  yield* rest;
}
