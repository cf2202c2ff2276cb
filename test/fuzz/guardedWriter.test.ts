/**
 * GuardedWriter (src/convert/GuardedWriter.ts): a group the format refuses is
 * left out and reported, the document stays whole, other errors go through.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { GuardedWriter } from '../../src/convert/GuardedWriter.js';
import { ToolkitError } from '../../src/errors.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { parseRdfXml } from '../helpers/rdf.js';

const { namedNode, literal, quad } = DataFactory;
const ok = [quad(namedNode('https://doi.org/10.1/a'), namedNode('http://schema.org/name'), literal('A'))];
// RDF/XML cannot carry a predicate without an XML local name, nor a '..' segment a reader would resolve away.
const refused = [quad(namedNode('https://doi.org/10.1/b'), namedNode('http://example.org/p/1'), literal('B'))];
const dotted = [quad(namedNode('http://example.org/a/../b'), namedNode('http://schema.org/name'), literal('C'))];

describe('GuardedWriter', () => {
  it('leaves out a group the format refuses, keeps the error, and writes the rest as a whole document', async () => {
    const writer = new GuardedWriter(serializerFor('rdfxml').createWriter());
    let text = writer.start() + writer.write(ok);
    expect(writer.takeFailure()).toBeUndefined();
    text += writer.write(refused);
    const failure = writer.takeFailure();
    expect(failure).toBeInstanceOf(ToolkitError);
    expect(failure?.code).toBe('serialization');
    expect(failure?.message).toMatch(/https:\/\/doi\.org\/10\.1\/b/);
    expect(writer.takeFailure()).toBeUndefined();
    text += writer.write(dotted);
    expect(writer.takeFailure()?.message).toMatch(/'\.' or '\.\.' segment/);
    text += writer.write(ok) + writer.end();
    const quads: RDF.Quad[] = await parseRdfXml(text);
    expect(quads.map((q) => q.object.value)).toEqual(['A', 'A']);
  });

  it('lets other errors through', () => {
    const writer = new GuardedWriter({
      start: () => '',
      write: () => {
        throw new Error('disk on fire');
      },
      end: () => '',
    });
    expect(() => writer.write(ok)).toThrow('disk on fire');
  });
});
