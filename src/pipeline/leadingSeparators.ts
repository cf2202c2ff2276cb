import { dataFactory as DataFactory } from '../rdf/dataFactory.js';
import { NS } from '../rdf/namespaces.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';

/**
 * What a writer puts before a record's text when the record is the first of
 * the output and when it follows another (JSON-LD: `""` and `","`; the other
 * formats: nothing), found by writing one probe statement both ways: the
 * text past the longest common end is the difference.
 */
export function leadingSeparators(create: () => RecordWriter): { first: string; later: string } {
  const probe = [
    DataFactory.quad(
      DataFactory.namedNode('https://example.org/probe'),
      DataFactory.namedNode(`${NS.schemaHttp}name`),
      DataFactory.literal('probe'),
    ),
  ];
  const fresh = create();
  fresh.start();
  const first = fresh.write(probe);
  const continued = create();
  continued.continueAfter(1);
  const later = continued.write(probe);
  let common = 0;
  while (
    common < first.length &&
    common < later.length &&
    first[first.length - 1 - common] === later[later.length - 1 - common]
  )
    common++;
  return { first: first.slice(0, first.length - common), later: later.slice(0, later.length - common) };
}
