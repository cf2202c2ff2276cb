/**
 * Counting things in a graph the way a user merging graphs would: under the
 * owl:sameAs closure (symmetric, transitive), with SPARQL (Comunica over an n3
 * Store). `nodesUnderSameAs` gives the number of classes of nodes of a class:
 * each node is represented by the least IRI it is owl:sameAs, directly or not.
 */
import type * as RDF from '@rdfjs/types';
import { QueryEngine } from '@comunica/query-sparql-rdfjs-lite';
import { Store } from 'n3';

const engine = new QueryEngine();

/** The number of nodes of `typeIri` under the owl:sameAs closure of `quads`. */
export async function nodesUnderSameAs(quads: readonly RDF.Quad[], typeIri: string): Promise<number> {
  const query = `
    PREFIX owl: <http://www.w3.org/2002/07/owl#>
    SELECT (COUNT(DISTINCT ?rep) AS ?n) WHERE {
      { SELECT ?x (MIN(STR(?y)) AS ?rep) WHERE {
          ?x a <${typeIri}> .
          ?x (owl:sameAs|^owl:sameAs)* ?y .
        } GROUP BY ?x }
    }`;
  return Number((await selectOne(quads, query)).n);
}

/** The number of nodes of `typeIri` taken as they are (no closure). */
export async function nodesAsWritten(quads: readonly RDF.Quad[], typeIri: string): Promise<number> {
  return Number((await selectOne(quads, `SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a <${typeIri}> }`)).n);
}

/** Runs a SELECT over `quads` and returns its rows as plain values. */
export async function select(quads: readonly RDF.Quad[], query: string): Promise<Record<string, string>[]> {
  const store = new Store([...quads]);
  const stream = await engine.queryBindings(query, { sources: [store] });
  const rows: Record<string, string>[] = [];
  for (const b of await stream.toArray()) {
    const row: Record<string, string> = {};
    for (const [k, v] of b) row[k.value] = v.value;
    rows.push(row);
  }
  return rows;
}

async function selectOne(quads: readonly RDF.Quad[], query: string): Promise<Record<string, string>> {
  const rows = await select(quads, query);
  return rows[0] ?? {};
}
