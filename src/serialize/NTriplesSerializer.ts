import { formatInfo } from '../formats.js';
import { NTriplesWriter } from '../rdf/NTriplesWriter.js';
import type { FormatName, QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';

/** N-Triples (`application/n-triples`): one line per triple, hand-written for speed. Named graphs are refused. */
export class NTriplesSerializer implements QuadSerializer {
  /** The media type of N-Triples. */
  static readonly MEDIA_TYPE = 'application/n-triples';
  readonly format: FormatName = 'ntriples';
  readonly mediaType = NTriplesSerializer.MEDIA_TYPE;
  readonly extensions = formatInfo('ntriples').extensions;

  createWriter(_options: SerializerOptions = {}): RecordWriter {
    return new NTriplesWriter(false, 'N-Triples', undefined);
  }
}
