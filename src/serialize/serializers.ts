import { ToolkitError } from '../errors.js';
import { FORMATS, type FormatName } from '../formats.js';
import type { QuadSerializer } from './QuadSerializer.js';
import { JsonLdSerializer } from './JsonLdSerializer.js';
import { NQuadsSerializer } from './NQuadsSerializer.js';
import { NTriplesSerializer } from './NTriplesSerializer.js';
import { RdfXmlSerializer } from './RdfXmlSerializer.js';
import { TriGSerializer } from './TriGSerializer.js';
import { TurtleSerializer } from './TurtleSerializer.js';

/** The writer of each format of the table (`formats.ts`): the compiler refuses a format without one. */
const WRITERS: Readonly<Record<FormatName, QuadSerializer>> = {
  turtle: new TurtleSerializer(),
  ntriples: new NTriplesSerializer(),
  nquads: new NQuadsSerializer(),
  jsonld: new JsonLdSerializer(),
  rdfxml: new RdfXmlSerializer(),
  trig: new TriGSerializer(),
};

/** The serialiser of every format, by format name (in the order of {@link FORMATS}). */
export const SERIALIZERS: ReadonlyMap<FormatName, QuadSerializer> = new Map(
  FORMATS.map((f) => [f.format, WRITERS[f.format]] as const),
);

/** The serialiser of a format. Throws `unsupported-media-type` for a name it does not know. */
export function serializerFor(format: FormatName): QuadSerializer {
  const serializer = SERIALIZERS.get(format);
  if (!serializer) throw new ToolkitError(`no serialiser for the format "${format}"`, 'unsupported-media-type');
  return serializer;
}
