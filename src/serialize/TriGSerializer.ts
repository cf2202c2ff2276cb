import type * as RDF from '@rdfjs/types';
import { formatInfo, type FormatName } from '../formats.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import { TurtleWriter } from './TurtleSerializer.js';
import { blankNodeLabel, escapeTermIri, serializationError } from '../rdf/escape.js';
import { dataFactory } from '../rdf/dataFactory.js';
import { DEFAULT_PREFIXES } from '../rdf/prefixes.js';

const INDENT = '    ';

/**
 * The record writer of TriG: Turtle's `@prefix` lines, then each group's quads
 * as Turtle, those of a named graph inside `<graph> { ... }` (one block for
 * each run of quads in the same graph). Each group is written whole, so
 * groups written by different writers (worker threads) join into one document.
 */
export class TriGWriter implements RecordWriter {
  private readonly turtle: TurtleWriter;
  private readonly graph: RDF.NamedNode | undefined;

  constructor(prefixes: Readonly<Record<string, string>>, graph?: string) {
    this.turtle = new TurtleWriter(prefixes, 'TriG');
    this.graph = graph === undefined ? undefined : dataFactory.namedNode(graph);
  }

  /** Records are independent in this format: nothing to carry over. */
  continueAfter(_records: number): void {}

  start(): string {
    return this.turtle.start();
  }

  write(quads: readonly RDF.Quad[]): string {
    let out = '';
    let from = 0;
    for (let i = 1; i <= quads.length; i++) {
      if (i < quads.length && sameTerm(quads[i]!.graph, quads[from]!.graph)) continue;
      out += this.block(quads.slice(from, i));
      from = i;
    }
    return out;
  }

  end(): string {
    return '';
  }

  /** Quads of one graph: Turtle at the top level for the default graph, else inside the graph's braces. */
  private block(quads: readonly RDF.Quad[]): string {
    const graph = quads[0]!.graph.termType === 'DefaultGraph' ? this.graph : quads[0]!.graph;
    if (graph === undefined) return this.turtle.write(quads);
    const body = this.turtle.write(quads.map((q) => dataFactory.quad(q.subject, q.predicate, q.object)));
    // Turtle's literals escape line breaks, so every line of the body is a line of statements: indent them.
    const lines = body.replace(/\n+$/, '').split('\n');
    return `${graphLabel(graph)} {\n${lines.map((l) => (l === '' ? l : INDENT + l)).join('\n')}\n}\n\n`;
  }
}

function sameTerm(a: RDF.Term, b: RDF.Term): boolean {
  return a === b || (a.termType === b.termType && a.value === b.value);
}

/** The label of a named graph: `<iri>` or `_:label`. */
function graphLabel(graph: RDF.Term): string {
  if (graph.termType === 'NamedNode') return `<${escapeTermIri(graph)}>`;
  if (graph.termType === 'BlankNode') return `_:${blankNodeLabel(graph.value)}`;
  throw serializationError(`a ${graph.termType} cannot name a graph`, undefined, 'TriG');
}

/**
 * TriG (`application/trig`): Turtle with named graphs, written by the Turtle
 * writer (`@prefix` lines, subjects with `;` and `,`, `a`), each named graph's
 * quads inside `<graph> { ... }`. With `options.graph`, the default graph's
 * quads go into that graph, as in N-Quads.
 */
export class TriGSerializer implements QuadSerializer {
  readonly format: FormatName = 'trig';
  readonly mediaType = formatInfo('trig').mediaType;
  readonly extensions = formatInfo('trig').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    return new TriGWriter(options.prefixes ?? DEFAULT_PREFIXES, options.graph);
  }
}
