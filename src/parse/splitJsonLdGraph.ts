import { limitJsonDepth } from './limitJsonDepth.js';
import { DEFAULT_MAX_DOCUMENT_CHARS, tooLarge } from './limits.js';

/** One document of {@link splitJsonLdGraph}: a whole JSON-LD text, and the line of the input where its nodes start. */
export interface JsonLdPiece {
  text: string;
  line: number;
}

/**
 * Cuts a JSON-LD document of the form `{"@context": C, "@graph": [n1, n2, ...]}`
 * (the layout of this toolkit's dumps and of most JSON-LD dumps) into
 * documents `{"@context": C, "@graph": [n1 ... nN]}`, `{"@context": C, "@graph": [...]}`, ...
 * while it streams, to be parsed one after the other.
 *
 * Why: jsonld-streaming-parser holds every quad of a top-level `@graph` until
 * the object around it closes, because a key after `@graph` (an `@id`, a
 * property) could still make it a named graph (w3c/json-ld-streaming#54), and
 * it keeps the values of a top-level array until the array closes: a dump of a
 * million records would be held whole. Documents of N nodes are not.
 *
 * The triples are the same, in the default graph. Keys after `@graph` become
 * one more document with the same context, so their triples are kept; the
 * graph name they would have given the nodes (an `@id` after `@graph`) is not,
 * so this is only for readers that drop the graph of every quad (validation,
 * loading into one graph). Labelled blank nodes keep their labels across the
 * documents. A document of any other layout comes back whole (one piece).
 * A cut document gives a last piece that is cut too, for the parser to report.
 *
 * Memory is bounded: a piece is also cut after 4 MiB of nodes; a single node
 * (or a document of another layout, passed whole) larger than
 * `maxDocumentChars`, and with `maxDepth` a nesting deeper than that, fail
 * with a `parse` error as soon as they are seen.
 */
export async function* splitJsonLdGraph(
  chunks: AsyncIterable<string>,
  nodesPerPiece = 256,
  limits: SplitLimits = {},
): AsyncGenerator<JsonLdPiece, void, undefined> {
  const source = limits.source ?? '<input>';
  const maxChars = limits.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS;
  const iterator = (limits.maxDepth === undefined ? chunks : limitJsonDepth(chunks, limits.maxDepth, source))[
    Symbol.asyncIterator
  ]();
  // The head: up to the `[` of "@graph".
  let head = '';
  let found: Head | 'fallback' | undefined;
  while (found === undefined) {
    const next = await iterator.next();
    if (next.done) {
      found = 'fallback';
      break;
    }
    head += next.value;
    found = readHead(head);
    if (found === undefined && head.length > MAX_HEAD) found = 'fallback';
  }
  if (found === 'fallback') {
    // Not the layout: the document as it is (the JSON-LD parser holds it anyway).
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      head += next.value;
      if (head.length > maxChars)
        throw tooLarge(
          'a JSON-LD document of another layout than {"@context": …, "@graph": […]} (held whole)',
          maxChars,
          source,
        );
    }
    if (head.length > maxChars)
      throw tooLarge(
        'a JSON-LD document of another layout than {"@context": …, "@graph": […]} (held whole)',
        maxChars,
        source,
      );
    yield { text: head, line: 1 };
    return;
  }
  const context = found.context === undefined ? '' : `"@context":${found.context.replace(/[\r\n]/g, ' ')},`;
  const startLine = lines(head.slice(0, found.end)) + 1;
  const newScanner = () => new GraphScanner(context, Math.max(1, nodesPerPiece), startLine, { maxChars, source });
  if (limits.keepGraphs) {
    yield* keepingGraphs(head, found.end, iterator, newScanner, maxChars, source);
    return;
  }
  const scanner = newScanner();
  yield* scanner.scan(head.slice(found.end));
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield* scanner.scan(next.value);
  yield* scanner.end();
}

/**
 * The pieces of a document whose graphs are kept (`keepGraphs`): a key after
 * `@graph` (an `@id`, a property) makes the nodes of the `@graph` a named
 * graph, and is seen only after them. So the document is first held as read,
 * while it is no larger than `maxChars` (scanned, to refuse a node too large
 * at once): at its end, with keys after `@graph` it is one piece, whole, as
 * read; without, its pieces. Once it is larger, its pieces stream, and keys
 * after `@graph` are refused (the document would have to be held whole).
 */
async function* keepingGraphs(
  head: string,
  graphStart: number,
  rest: AsyncIterator<string>,
  newScanner: () => GraphScanner,
  maxChars: number,
  source: string,
): AsyncGenerator<JsonLdPiece, void, undefined> {
  const held = [head.slice(graphStart)];
  let chars = head.length;
  // Scans what is held (its pieces are made again from `held` when they are wanted: the text is held once).
  const probe = newScanner();
  const drain = (pieces: Iterable<JsonLdPiece>) => {
    for (const _ of pieces);
  };
  drain(probe.scan(held[0]!));
  let next = await rest.next();
  while (!next.done && chars <= maxChars) {
    held.push(next.value);
    chars += next.value.length;
    drain(probe.scan(next.value));
    next = await rest.next();
  }
  const namedGraph = () =>
    tooLarge(
      'a JSON-LD document with keys after its "@graph" (they make its nodes a named graph, which is known only at its end: held whole)',
      maxChars,
      source,
    );
  if (probe.keysAfterGraph) {
    if (chars > maxChars) throw namedGraph();
    // All of it was read (it is no larger than the limit).
    yield { text: head.slice(0, graphStart) + held.join(''), line: 1 };
    return;
  }
  const scanner = newScanner();
  while (held.length > 0) yield* scanner.scan(held.shift()!);
  for (; !next.done; next = await rest.next()) {
    yield* scanner.scan(next.value);
    if (scanner.keysAfterGraph) throw namedGraph();
  }
  yield* scanner.end();
}

/** Limits of {@link splitJsonLdGraph}. */
export interface SplitLimits {
  /** Characters of one node (or of a document of another layout) held at most. Defaults to 2^23 (8 Mi). */
  maxDocumentChars?: number;
  /** Levels of nesting read at most ({@link limitJsonDepth}). Defaults to no limit (the parser's own). */
  maxDepth?: number;
  /** The name of the input in errors. Defaults to `<input>`. */
  source?: string;
  /**
   * The caller keeps the graph of every quad: keys after `@graph` are not cut off (see {@link keepingGraphs}).
   * Defaults to false (the nodes' graph is dropped).
   */
  keepGraphs?: boolean;
}

/** Characters of nodes after which a piece is cut, whatever their number. */
const PIECE_CHARS = 4 * 2 ** 20;

function lines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The longest head (the `@context` is in it) read before giving up and passing the document through. */
const MAX_HEAD = 8 * 2 ** 20;

interface Head {
  /** The text of the `@context` value, when there is one before `@graph`. */
  context: string | undefined;
  /** Offset just after the `[` that opens the `@graph` array. */
  end: number;
}

const WS = /[ \t\r\n]/;

/** Reads `{ ["@context": VALUE ,] "@graph" : [` (whitespace and a BOM allowed): the head, `undefined` when more text is needed, or `fallback`. */
function readHead(text: string): Head | 'fallback' | undefined {
  let i = 0;
  const skip = () => {
    while (i < text.length && (WS.test(text[i]!) || text[i] === '\uFEFF')) i++;
  };
  skip();
  if (i >= text.length) return undefined;
  if (text[i] !== '{') return 'fallback';
  i++;
  let context: string | undefined;
  for (;;) {
    skip();
    if (i >= text.length) return undefined;
    if (text[i] !== '"') return 'fallback';
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const key = text.slice(i, keyEnd);
    i = keyEnd;
    skip();
    if (i >= text.length) return undefined;
    if (text[i] !== ':') return 'fallback';
    i++;
    skip();
    if (i >= text.length) return undefined;
    if (key === '"@graph"') {
      if (text[i] !== '[') return 'fallback';
      return { context, end: i + 1 };
    }
    if (key !== '"@context"' || context !== undefined) return 'fallback';
    const valueEnd = valueEndAt(text, i);
    if (valueEnd < 0) return undefined;
    context = text.slice(i, valueEnd);
    i = valueEnd;
    skip();
    if (i >= text.length) return undefined;
    if (text[i] !== ',') return 'fallback';
    i++;
  }
}

/** Offset after the JSON string that starts at `start` (a `"`), or -1 when it does not end in `text`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92)
      i++; // backslash: skip the escaped character
    else if (c === 34) return i + 1;
  }
  return -1;
}

/** Offset after the JSON value that starts at `start`, or -1 when it does not end in `text`. */
function valueEndAt(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    // A number, true, false, null: up to the next delimiter.
    for (let i = start; i < text.length; i++) if (/[,}\] \t\r\n]/.test(text[i]!)) return i;
    return -1;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Follows the `@graph` array across chunks and cuts it every N nodes. */
class GraphScanner {
  /** Nesting inside the array: 0 between its nodes. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Nodes in the piece being read, and the length of its text up to the last of them. */
  private nodes = 0;
  private bodyAtNode = 0;
  /** The line where the node being read starts (for the error of a node too large), and whether its first character is still to come. */
  private nodeLine: number;
  private nodeAhead = true;
  /** `graph`: in the array; `after`: just after it (the next `,` or `}` decides); `tail`: keys after it; `done`: after the last `}`. */
  private state: 'graph' | 'after' | 'tail' | 'done' = 'graph';
  /** Text of the piece being read (nodes, or the keys after `@graph`). */
  private body = '';
  private line: number;
  private pieceLine: number;

  constructor(
    private readonly context: string,
    private readonly nodesPerPiece: number,
    line: number,
    private readonly limits: { maxChars: number; source: string },
  ) {
    this.line = line;
    this.pieceLine = line;
    this.nodeLine = line;
  }

  /** Keys follow the `@graph` array (read so far). */
  get keysAfterGraph(): boolean {
    return this.state === 'tail';
  }

  *scan(chunk: string): Generator<JsonLdPiece> {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) this.line++;
      if (this.state === 'tail' || this.state === 'done') continue;
      if (this.state === 'after') {
        if (c === 44) {
          // `,` : keys follow "@graph": one more document, with the context (the outer `}` closes it).
          this.state = 'tail';
          this.body = `{${this.context}`;
          this.bodyAtNode = this.body.length;
          this.pieceLine = this.line;
          this.nodeLine = this.line;
          from = i + 1;
        } else if (c === 125) {
          this.state = 'done';
        }
        continue;
      }
      if (this.nodeAhead && c !== 32 && c !== 10 && c !== 13 && c !== 9) {
        this.nodeAhead = false;
        this.nodeLine = this.line;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        if (this.depth > 0) {
          this.depth--;
          continue;
        }
        // The `]` of the array.
        this.body += chunk.slice(from, i);
        if (this.body.trim()) yield this.piece(true);
        this.body = '';
        this.state = 'after';
      } else if (c === 44 && this.depth === 0) {
        const size = this.body.length + (i - from);
        this.nodeAhead = true;
        if (++this.nodes < this.nodesPerPiece && size < PIECE_CHARS) {
          this.bodyAtNode = size;
          continue;
        }
        this.body += chunk.slice(from, i);
        yield this.piece(true);
        this.body = '';
        this.nodes = 0;
        this.bodyAtNode = 0;
        this.pieceLine = this.line;
        from = i + 1;
      }
    }
    if (this.state === 'graph' || this.state === 'tail') {
      this.body += chunk.slice(from);
      if (this.body.length - this.bodyAtNode > this.limits.maxChars) {
        throw tooLarge(
          this.state === 'graph' ? 'a node of the JSON-LD "@graph"' : 'the keys of the JSON-LD document after "@graph"',
          this.limits.maxChars,
          this.limits.source,
          this.nodeLine,
        );
      }
    }
  }

  /** The last piece: the keys after `@graph`, or what is left of a cut document (for the parser to report). */
  *end(): Generator<JsonLdPiece> {
    if (this.state === 'tail') yield { text: this.body, line: this.pieceLine };
    else if (this.state === 'graph') yield this.piece(false);
    else if (this.state === 'after') yield { text: `{${this.context}"@graph":[]`, line: this.line };
  }

  private piece(closed: boolean): JsonLdPiece {
    return { text: `{${this.context}"@graph":[${this.body}${closed ? ']}' : ''}`, line: this.pieceLine };
  }
}
