import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { parseRdfQuads } from '../../src/parse/parseRdf.js';
import { scopedBlankNodes } from '../../src/rdf/scopedBlankNodes.js';

/** The blank nodes' labels of a document parsed with `parseRdfQuads`, each once, sorted. */
async function labels(text: string, format: string, blankNodeScope?: string): Promise<string[]> {
  const out = new Set<string>();
  for await (const q of parseRdfQuads(text, { format, ...(blankNodeScope ? { blankNodeScope } : {}) }))
    for (const t of [q.subject, q.object]) if (t.termType === 'BlankNode') out.add(t.value);
  return [...out].sort();
}

const TURTLE = `@prefix ex: <http://example.org/> .
_:x ex:p [ ex:q _:y ] .
ex:s ex:list ( 1 2 ) .
`;

describe('scopedBlankNodes', () => {
  it('labels a labelled node <scope>:<label>, the others <scope>a:<n> in order, each factory from 1', () => {
    const factory = () => scopedBlankNodes(DataFactory as unknown as RDF.DataFactory, 'g2');
    const f = factory();
    expect([f.blankNode('x').value, f.blankNode().value, f.blankNode().value]).toEqual(['g2:x', 'g2a:1', 'g2a:2']);
    expect(factory().blankNode().value).toBe('g2a:1');
    expect(f.namedNode('http://example.org/s').value).toBe('http://example.org/s');
  });

  it("in parseRdf: Turtle's labels as written, the same however many documents the thread parsed before", async () => {
    const first = await labels(TURTLE, 'turtle', 'g1');
    expect(first).toEqual(['g1:x', 'g1:y', 'g1a:1', 'g1a:2', 'g1a:3']);
    await labels(TURTLE, 'turtle');
    expect(await labels(TURTLE, 'turtle', 'g1')).toEqual(first);
    // Without a scope, n3's own per-parser labels: not a function of the document.
    expect(await labels(TURTLE, 'turtle')).not.toEqual(await labels(TURTLE, 'turtle'));
  });

  it('in parseRdf: JSON-LD and RDF/XML too', async () => {
    const jsonld = JSON.stringify({
      '@id': '_:a',
      'http://example.org/p': { 'http://example.org/q': 'v' },
    });
    expect(await labels(jsonld, 'jsonld', 'g3')).toEqual(['g3:a', 'g3a:1']);
    const rdfxml = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:nodeID="n"><ex:p><rdf:Description><ex:q>v</ex:q></rdf:Description></ex:p></rdf:Description>
</rdf:RDF>`;
    const once = await labels(rdfxml, 'rdfxml', 'g1');
    expect(once.every((l) => l.startsWith('g1:') || l.startsWith('g1a:'))).toBe(true);
    expect(await labels(rdfxml, 'rdfxml', 'g1')).toEqual(once);
  });
});
