import { formatInfo } from '../formats.js';
import type { FormatName, QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import { NTriplesWriter } from '../rdf/NTriplesWriter.js';

/**
 * N-Quads (`application/n-quads`). Quads in a named graph keep it; quads in
 * the default graph get `options.graph` when it is set, else stay triples.
 */
export class NQuadsSerializer implements QuadSerializer {
  /** The media type of N-Quads. */
  static readonly MEDIA_TYPE = 'application/n-quads';
  readonly format: FormatName = 'nquads';
  readonly mediaType = NQuadsSerializer.MEDIA_TYPE;
  readonly extensions = formatInfo('nquads').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    return new NTriplesWriter(true, 'N-Quads', options.graph);
  }
}
