import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { withoutFormatExtension } from '../formats.js';
import { NS, RDF_TYPE } from '../rdf/namespaces.js';

/** Where graph IRIs derived from file names live. */
export const GRAPH_BASE = 'https://w3id.org/scholarly-rdf/graph/';

const DATASET_CLASSES = new Set([`${NS.void}Dataset`, `${NS.dcat}Dataset`]);

/** The IRI of the first subject typed `void:Dataset` or `dcat:Dataset` among `quads`, or `undefined`. */
export function findDatasetIri(quads: Iterable<RDF.Quad>): string | undefined {
  for (const q of quads) {
    if (
      q.subject.termType === 'NamedNode' &&
      q.predicate.value === RDF_TYPE &&
      q.object.termType === 'NamedNode' &&
      DATASET_CLASSES.has(q.object.value)
    ) {
      return q.subject.value;
    }
  }
  return undefined;
}

/** The graph of a dataset: its IRI + `/graph`. */
export function graphOfDataset(datasetIri: string): string {
  return `${datasetIri.replace(/\/+$/, '')}/graph`;
}

/**
 * The graph IRI a file name gives: `GRAPH_BASE` + the name without directories
 * and RDF/gzip extensions, lower-cased, with anything but `a-z0-9._-` turned
 * into `-` (`dumps/Springer 2015.nt.gz` → `https://w3id.org/scholarly-rdf/graph/springer-2015`).
 * Standard input (`-`) gives `.../graph/stdin`.
 */
export function graphOfFileName(path: string): string {
  if (path === '-') return `${GRAPH_BASE}stdin`;
  let name = path.split(/[\\/]/).pop() ?? path;
  name = withoutFormatExtension(name);
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return `${GRAPH_BASE}${slug || 'dump'}`;
}

/** Throws a usage error unless `iri` is an absolute IRI that can be written as `<iri>` in SPARQL. */
export function assertGraphIri(iri: string): void {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>"{}|^`\\]*$/.test(iri)) {
    throw new ToolkitError(`the graph must be an absolute IRI without spaces or <>"{}|^\`\\: ${iri}`, 'usage');
  }
}
