import { ToolkitError } from '../errors.js';
import { FORMATS } from '../formats.js';
import type { FormatName, QuadSerializer } from './QuadSerializer.js';
import { JsonLdSerializer } from './JsonLdSerializer.js';
import { NQuadsSerializer } from './NQuadsSerializer.js';
import { NTriplesSerializer } from './NTriplesSerializer.js';
import { RdfXmlSerializer } from './RdfXmlSerializer.js';
import { TurtleSerializer } from './TurtleSerializer.js';

/** The serialiser of every format, by format name (in the order of {@link FORMATS}). */
export const SERIALIZERS: ReadonlyMap<FormatName, QuadSerializer> = new Map<FormatName, QuadSerializer>(
  (
    [
      new TurtleSerializer(),
      new NTriplesSerializer(),
      new NQuadsSerializer(),
      new JsonLdSerializer(),
      new RdfXmlSerializer(),
    ] as QuadSerializer[]
  )
    .sort((a, b) => FORMATS.findIndex((f) => f.format === a.format) - FORMATS.findIndex((f) => f.format === b.format))
    .map((s) => [s.format, s] as const),
);

/** The serialiser of a format. Throws `unsupported-media-type` for a name it does not know. */
export function serializerFor(format: FormatName): QuadSerializer {
  const serializer = SERIALIZERS.get(format);
  if (!serializer) throw new ToolkitError(`no serialiser for the format "${format}"`, 'unsupported-media-type');
  return serializer;
}
