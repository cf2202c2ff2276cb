import { formatInfo, type FormatName } from '../formats.js';
import { NTriplesWriter } from '../rdf/NTriplesWriter.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';

/** N-Triples (`application/n-triples`): one line per triple, hand-written for speed. Named graphs are refused. */
export class NTriplesSerializer implements QuadSerializer {
  readonly format: FormatName = 'ntriples';
  readonly mediaType = formatInfo('ntriples').mediaType;
  readonly extensions = formatInfo('ntriples').extensions;

  createWriter(_options: SerializerOptions = {}): RecordWriter {
    return new NTriplesWriter(false, 'N-Triples', undefined);
  }
}
