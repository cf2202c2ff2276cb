import { StringDecoder } from 'node:string_decoder';
import type { RdfInput } from './RdfInput.js';

/** Decodes chunks as UTF-8 text (multi-byte characters may span chunks) and drops a leading BOM. */
export async function* decodeUtf8(input: RdfInput): AsyncGenerator<string> {
  if (typeof input === 'string') {
    yield input.replace(/^\uFEFF/, '');
    return;
  }
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (first && text !== '') {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text !== '') yield text;
  }
  const tail = decoder.end();
  if (tail !== '') yield tail;
}
