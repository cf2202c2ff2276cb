import { formatInfo, type FormatName } from '../formats.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import { NTriplesWriter } from '../rdf/NTriplesWriter.js';

/**
 * N-Quads (`application/n-quads`). Quads in a named graph keep it; quads in
 * the default graph get `options.graph` when it is set, else stay triples.
 */
export class NQuadsSerializer implements QuadSerializer {
  readonly format: FormatName = 'nquads';
  readonly mediaType = formatInfo('nquads').mediaType;
  readonly extensions = formatInfo('nquads').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    return new NTriplesWriter(true, 'N-Quads', options.graph);
  }
}
