import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { NS } from '../rdf/namespaces.js';

/** How much of a dump {@link detectSchemaScheme} reads at most (decompressed). */
const SNIFF_CHARS = 1 << 20;

/**
 * The schema.org namespace a dump is written with, from its start: `https`
 * when `https://schema.org/` appears before (or without) `http://schema.org/`
 * in its first MiB (decompressed for `.gz`), else `http`. So that `validate`
 * checks a dump written with `--schema-https` against the shipped shapes
 * without being told. A file that cannot be read gives `http` (the reader
 * reports the error itself).
 */
export async function detectSchemaScheme(path: string): Promise<'http' | 'https'> {
  let text = '';
  try {
    const file = createReadStream(path);
    const stream = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      text += chunk.toString('latin1');
      if (text.length >= SNIFF_CHARS) break;
    }
    file.destroy();
  } catch {
    // unreadable or not gzip: the reader says why
  }
  const https = text.indexOf(NS.schemaHttps);
  const http = text.indexOf(NS.schemaHttp);
  return https >= 0 && (http < 0 || https < http) ? 'https' : 'http';
}
