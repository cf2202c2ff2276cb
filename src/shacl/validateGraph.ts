import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { recordKeyOf } from '../group/groupRecords.js';
import { termKey as nodeKey } from '../rdf/termKey.js';
import { shapeTest } from './scope/classTargets.js';
import type { ShapesGraph } from './loadShapes.js';
import { RecordValidator, type RecordValidatorOptions } from './RecordValidator.js';
import { outcomeOf, type ValidationOutcome, type ValidationResult } from './reports/ValidationResult.js';
import { RDFS_SUBCLASS_OF, RDF_TYPE } from '../rdf/namespaces.js';

const SUBCLASS_OF = RDFS_SUBCLASS_OF;

/** Options of {@link validateGraph}. */
export interface ValidateGraphOptions extends Pick<RecordValidatorOptions, 'sparql'> {
  /** The shapes. */
  shapes: ShapesGraph;
  /** The most triples held in memory (duplicates count); a larger input fails (`usage`). Defaults to {@link MAX_GRAPH_TRIPLES}. */
  maxTriples?: number;
  /** Why the whole graph is validated, for the error of an input too large. Defaults to none. */
  why?: string;
  /** Stops the reading (the iteration throws the signal's reason). Defaults to none. */
  signal?: AbortSignal;
}

/** What {@link validateGraph} holds at most by default: about 1.2 GB (measured: 917,000 triples, 2.2 GB of RSS). */
export const MAX_GRAPH_TRIPLES = 500_000;

/** The results of the whole graph as a record's outcome (`key` undefined: results on nodes no record names). */
export interface GraphValidation {
  key: string | undefined;
  outcome: ValidationOutcome;
}

/** What {@link validateGraph} found. */
export interface GraphValidationResult {
  /** Every result, once. */
  results: ValidationResult[];
  /** The results by record (a result on a shared node in each record that names the node). */
  records: GraphValidation[];
}

/**
 * Validates all the quads as one graph (graphs ignored), as SHACL defines it:
 * for shapes whose constraints reach beyond a record ({@link analyseShapes}).
 * The data's `rdfs:subClassOf` triples and the types it gives shapes are read
 * with the shapes (class targets, `sh:class`). The results are also given by
 * record, as validating record by record counts them: a result on a record's
 * node in that record, on a shared node (a journal, a person with an ORCID iD:
 * no record's own, named by records) in every record that names it (through
 * other shared or blank nodes too); each record of the input once, conforming
 * or not; the results on nodes no record names come last, as one group (when
 * the input has such nodes). Memory: the whole graph.
 */
export async function validateGraph(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  options: ValidateGraphOptions,
): Promise<GraphValidationResult> {
  const max = options.maxTriples ?? MAX_GRAPH_TRIPLES;
  const triples: RDF.Quad[] = [];
  for await (const quad of quads) {
    options.signal?.throwIfAborted();
    triples.push(quad);
    if (triples.length > max) {
      throw new ToolkitError(
        `the input holds more than ${max} triples, too many to validate as one graph in memory${options.why ? ` (needed: ${options.why})` : ''}; ` +
          'raise `maxGraphTriples` if the memory allows, or validate record by record with `mode` record (the results may then differ from SHACL on the whole graph)',
        'usage',
        { details: { maxTriples: max } },
      );
    }
  }
  const isShape = shapeTest(options.shapes.dataset);
  const dataClassTriples = triples.filter(
    (q) => q.predicate.value === SUBCLASS_OF || (q.predicate.value === RDF_TYPE && isShape(q.subject)),
  );
  const validator = await RecordValidator.create({
    shapes: options.shapes,
    ...(options.sparql ? { sparql: options.sparql } : {}),
    dataClassTriples,
  });
  const { results } = (await validator.validateRecords([triples]))[0]!;
  return { results, records: byRecord(triples, results) };
}

/** The results by the records of their focus node ({@link ownersOf}), every record of the triples once (in order of appearance), then nodes of no record. */
function byRecord(triples: readonly RDF.Quad[], results: readonly ValidationResult[]): GraphValidation[] {
  const owners = ownersOf(triples);
  const groups = new Map<string | undefined, ValidationResult[]>();
  let other = false;
  for (const q of triples) {
    const keys = owners(q.subject);
    if (keys.length === 0) other = true;
    for (const k of keys) if (!groups.has(k)) groups.set(k, []);
  }
  for (const r of results) {
    const keys = owners(r.focusNode);
    for (const k of keys.length ? keys : [undefined]) {
      const list = groups.get(k);
      if (list) list.push(r);
      else groups.set(k, [r]);
    }
  }
  if (other && !groups.has(undefined)) groups.set(undefined, []);
  const out: GraphValidation[] = [];
  for (const [k, list] of groups) if (k !== undefined) out.push({ key: k, outcome: outcomeOf(list) });
  const rest = groups.get(undefined);
  if (rest) out.push({ key: undefined, outcome: outcomeOf(rest) });
  return out;
}

/**
 * The records of a node: its own (of its IRI), or, for a node no record owns (a shared IRI, a blank node), the
 * records of the nodes that name it, through any chain of such nodes (an issue is named by a work, its journal
 * by the issue's volume...). None for a node nothing names.
 */
function ownersOf(triples: readonly RDF.Quad[]): (t: RDF.Term) => string[] {
  const namedBy = new Map<string, RDF.Term[]>();
  for (const q of triples) {
    const o = q.object;
    if (o.termType === 'Literal' || (o.termType === 'NamedNode' && recordKeyOf(o) !== undefined)) continue;
    const list = namedBy.get(nodeKey(o));
    if (list) list.push(q.subject);
    else namedBy.set(nodeKey(o), [q.subject]);
  }
  const memo = new Map<string, string[]>();
  return (t) => {
    const own = recordKeyOf(t);
    if (own !== undefined) return [own];
    const start = nodeKey(t);
    const known = memo.get(start);
    if (known) return known;
    const keys = new Set<string>();
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) {
      for (const s of namedBy.get(todo.pop()!) ?? []) {
        const k = recordKeyOf(s);
        if (k !== undefined) keys.add(k);
        else if (!seen.has(nodeKey(s))) {
          seen.add(nodeKey(s));
          todo.push(nodeKey(s));
        }
      }
    }
    const out = [...keys];
    memo.set(start, out);
    return out;
  };
}
