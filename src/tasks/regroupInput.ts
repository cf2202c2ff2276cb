import type * as RDF from '@rdfjs/types';
import { isLineFormat, type FormatName } from '../formats.js';
import { groupNTriplesRecords, type NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import { groupRecords } from '../group/groupRecords.js';
import { recordTextsOf } from '../group/recordTextsOf.js';
import { decodeUtf8 } from '../parse/decodeUtf8.js';
import type { ReadLimits } from '../parse/limits.js';
import { parseRdfQuads, type RdfInput } from '../parse/parseRdf.js';

/** The groups of an input for `regroupRecords`: N-Triples lines as read, other formats as N-Triples of their quads. */
export function regroupInput(
  input: RdfInput,
  format: FormatName | undefined,
  source: string,
  signal: AbortSignal | undefined,
  window: number,
  limits: ReadLimits,
): AsyncIterable<NTriplesRecordGroup> {
  if (isLineFormat(format))
    return groupNTriplesRecords(decodeUtf8(input), {
      format,
      source,
      window,
      keepBlankOwners: true,
      ...(limits.maxDocumentChars !== undefined ? { maxDocumentChars: limits.maxDocumentChars } : {}),
    });
  return recordTextsOf(
    groupRecords(quadsOf(input, format, source, signal, limits), { window, keepBlankOwners: true }),
    source,
  );
}

/**
 * The quads of an input as validate reads them: graphs ignored (so JSON-LD dumps stream). `blankNodeScope`: labels
 * its blank nodes the same in every thread (`ParseRdfOptions.blankNodeScope`); defaults to none.
 */
export function quadsOf(
  input: RdfInput,
  format: FormatName | undefined,
  source: string,
  signal: AbortSignal | undefined,
  limits: ReadLimits,
  blankNodeScope?: string,
): AsyncIterable<RDF.Quad> {
  return parseRdfQuads(input, {
    ...(blankNodeScope === undefined ? {} : { blankNodeScope }),
    format,
    source,
    ...(signal ? { signal } : {}),
    ...limits,
    ignoreGraphs: true,
    strict: true,
  });
}
