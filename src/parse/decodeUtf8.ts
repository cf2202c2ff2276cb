import type { RdfInput } from './RdfInput.js';

/**
 * Decodes chunks as UTF-8 text (multi-byte characters may span chunks; an
 * invalid sequence becomes U+FFFD) and drops a leading BOM. A streaming
 * `TextDecoder` decodes the same text as `StringDecoder`, in about half the time.
 */
export async function* decodeUtf8(input: RdfInput): AsyncGenerator<string> {
  if (typeof input === 'string') {
    yield input.replace(/^\uFEFF/, '');
    return;
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text !== '') {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text !== '') yield text;
  }
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}
