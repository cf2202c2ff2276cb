import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { formatInfo, type FormatName } from '../formats.js';
import { parseRdfQuads, resolveFormat } from '../parse/parseRdf.js';
import { createDocumentLoader, VOCAB_DIR_URL } from '../parse/documentLoader.js';
import type { FetchedTerm } from './fetchTerm.js';
import { PREFERRED_TERM_FORMATS, TERM_FORMATS } from './acceptHeader.js';

/** The terms shipped in `vocab/`. */
export const SHIPPED_TERMS = ['pagination'] as const;

/** Where a shipped term's file is: `vocab/<name>.<ext>`. */
export function shippedTermPath(name: string, format: FormatName): string {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) || name.includes('..')) {
    throw new ToolkitError(`"${name}" is not a term name`, 'usage');
  }
  return fileURLToPath(new URL(`${name}.${formatInfo(format).extensions[0]}`, VOCAB_DIR_URL));
}

/**
 * Loads a term from the copy shipped in `vocab/` (no network: JSON-LD
 * contexts come from `vocab/` too), in the same shape as {@link fetchTerm}.
 *
 * @param format A format name or media type; N-Quads is not shipped. Defaults to JSON-LD.
 */
export async function loadShippedTerm(name: string, format: FormatName | string = 'jsonld'): Promise<FetchedTerm> {
  const resolved = resolveFormat(format);
  if (!TERM_FORMATS.includes(resolved)) {
    const labels = PREFERRED_TERM_FORMATS.map((f) => formatInfo(f).label);
    throw new ToolkitError(
      `the shipped terms are in ${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}, not ${formatInfo(resolved).label}`,
      'unsupported-media-type',
    );
  }
  const path = shippedTermPath(name, resolved);
  let body: string;
  try {
    body = await readFile(path, 'utf8');
  } catch (cause) {
    throw new ToolkitError(
      `the term "${name}" is not shipped (no ${path}); shipped: ${SHIPPED_TERMS.join(', ')}`,
      'not-found',
      { cause },
    );
  }
  const quads: RDF.Quad[] = [];
  for await (const q of parseRdfQuads(body, { format: resolved, source: path, documentLoader: createDocumentLoader() }))
    quads.push(q);
  return {
    quads,
    mediaType: formatInfo(resolved).mediaType,
    format: resolved,
    body,
    url: new URL(`${name}.${formatInfo(resolved).extensions[0]}`, VOCAB_DIR_URL).href,
    via: 'shipped',
    notes: [],
  };
}
