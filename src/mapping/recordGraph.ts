import type * as RDF from '@rdfjs/types';
import { dataFactory } from '../rdf/dataFactory.js';
import { DEFAULT_BASE } from '../rdf/namespaces.js';
import { encodeIriPath } from './iri.js';

/**
 * The named graph of one record (`--graph-per-record`): `<base>record/<doi>`,
 * the DOI percent-encoded as an IRI path (as in the work's IRI
 * `https://doi.org/<doi>`, so `/` stays). A store can replace one record as a
 * whole by this graph (Graph Store Protocol `PUT`, or SPARQL `DROP GRAPH` +
 * `INSERT DATA`). `base` defaults to `https://w3id.org/scholarly-rdf/`.
 */
export function recordGraphIri(doi: string, base: string = DEFAULT_BASE): string {
  return `${base}record/${encodeIriPath(doi)}`;
}

/**
 * The pattern of the record graphs, as the dataset description states it
 * (`sr:recordGraphPattern`): `<base>record/{doi}`, where `{doi}` stands for
 * the DOI percent-encoded as {@link recordGraphIri} does.
 */
export function recordGraphPattern(base: string = DEFAULT_BASE): string {
  return `${base}record/{doi}`;
}

/**
 * A record's quads moved into its record graph ({@link recordGraphIri}):
 * every quad, whatever its graph before. New quads; the given ones are not changed.
 */
export function inRecordGraph(
  quads: readonly RDF.Quad[],
  doi: string,
  base: string = DEFAULT_BASE,
  factory: RDF.DataFactory = dataFactory,
): RDF.Quad[] {
  const graph = factory.namedNode(recordGraphIri(doi, base));
  const out = new Array<RDF.Quad>(quads.length);
  for (let i = 0; i < quads.length; i++) {
    const q = quads[i]!;
    out[i] = factory.quad(q.subject, q.predicate, q.object, graph);
  }
  return out;
}
