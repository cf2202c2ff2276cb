import type * as RDF from '@rdfjs/types';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFactory, Parser, Store } from 'n3';
import { ParseError, ToolkitError } from '../errors.js';
import { implicitClassShapes } from './scope/classTargets.js';
import { formatInfo } from '../formats.js';
import { DEFAULT_SHAPES_DIR, isShapesFileName } from './shapesFiles.js';
import { NS } from '../rdf/namespaces.js';
import { scopedBlankNodes } from '../rdf/scopedBlankNodes.js';

/** A set of SHACL shapes read from Turtle files. */
export interface ShapesGraph {
  /** The quads of every shapes file. */
  readonly dataset: Store;
  /** The files read, in the order read (sorted by name). */
  readonly files: readonly string[];
}

/**
 * Reads every `*.ttl` file of a directory (or one Turtle file) into one
 * shapes graph. Fails with `io` when the directory or file cannot be read or
 * holds no Turtle file, and with `parse` (line and column) on bad Turtle.
 *
 * @param dir A directory of `.ttl` files or a single `.ttl` file. Defaults to the shipped `shapes/`.
 */
export async function loadShapes(
  dir: string = DEFAULT_SHAPES_DIR,
  options: LoadShapesOptions = {},
): Promise<ShapesGraph> {
  let files: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    files = entries
      .filter((e) => e.isFile() && isShapesFileName(e.name))
      .map((e) => join(dir, e.name))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') files = [dir];
    else {
      const why = code === 'ENOENT' ? 'no such directory' : (err as Error).message;
      throw new ToolkitError(`cannot read shapes from ${dir}: ${why}`, 'io', { cause: err, details: { path: dir } });
    }
  }
  if (files.length === 0)
    throw new ToolkitError(`no shapes (*.${formatInfo('turtle').extensions[0]!}) in ${dir}`, 'io', {
      details: { path: dir },
    });
  const dataset = new Store();
  for (const [i, file] of files.entries()) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new ToolkitError(`cannot read shapes file ${file}: ${(err as Error).message}`, 'io', {
        cause: err,
        details: { path: file },
      });
    }
    // Blank nodes labelled by the file's place and their labels: the same shapes in every thread and every run.
    const quads = parseShapesText(text, file, `s${i + 1}`);
    dataset.addQuads(options.schemaScheme === 'https' ? quads.map(toHttpsSchema) : quads);
  }
  // Shapes that target nothing find every input conforming: a wrong --shapes, not a success.
  const isShape = (t: RDF.Term) => dataset.getQuads(t, null, null, null).some((q) => q.predicate.value.startsWith(SH));
  const targeted =
    TARGETS.some((p) => dataset.countQuads(null, p, null, null) > 0) ||
    implicitClassShapes(dataset, isShape).length > 0;
  if (!targeted) {
    throw new ToolkitError(
      `the shapes in ${dir} target nothing (no sh:targetClass, sh:targetNode, sh:targetSubjectsOf, sh:targetObjectsOf): every input would conform`,
      'parse',
      { details: { path: dir } },
    );
  }
  return { dataset, files };
}

/** Options of {@link loadShapes}. */
export interface LoadShapesOptions {
  /**
   * The schema.org namespace of the data to validate. With `https`, every
   * `http://schema.org/` IRI of the shapes (and a `sh:namespace` declaring it for
   * SPARQL constraints) becomes `https://schema.org/`, so shapes written for one
   * namespace validate dumps written with either. Defaults to `http`.
   */
  schemaScheme?: 'http' | 'https';
}

const SCHEMA_HTTP = NS.schemaHttp;
const SCHEMA_HTTPS = NS.schemaHttps;

/** A shapes quad with its schema.org terms in the `https` namespace. */
function toHttpsSchema(q: RDF.Quad): RDF.Quad {
  const term = <T extends RDF.Term>(t: T): T => {
    if (t.termType === 'NamedNode' && t.value.startsWith(SCHEMA_HTTP))
      return DataFactory.namedNode(SCHEMA_HTTPS + t.value.slice(SCHEMA_HTTP.length)) as unknown as T;
    if (t.termType === 'Literal' && t.value === SCHEMA_HTTP)
      return DataFactory.literal(SCHEMA_HTTPS, t.language || t.datatype) as unknown as T;
    return t;
  };
  return DataFactory.quad(term(q.subject), term(q.predicate), term(q.object), q.graph);
}

const SH = NS.sh;
const TARGETS = ['targetClass', 'targetNode', 'targetSubjectsOf', 'targetObjectsOf', 'target'].map((t) =>
  DataFactory.namedNode(`${SH}${t}`),
);

/**
 * Parses one Turtle shapes document; bad Turtle becomes a {@link ParseError} naming the file and line. Its blank
 * nodes are labelled in `scope` ({@link scopedBlankNodes}: `_:x` is `s1:x`, the nth `[ ]` `s1a:<n>`), whatever the
 * thread parsed before. `scope` defaults to `s1`.
 */
export function parseShapesText(text: string, source = '<shapes>', scope = 's1'): RDF.Quad[] {
  try {
    return new Parser({
      format: formatInfo('turtle').mediaType,
      baseIRI: `file://${source}`,
      blankNodePrefix: '',
      factory: scopedBlankNodes(DataFactory as unknown as RDF.DataFactory, scope) as never,
    }).parse(text);
  } catch (err) {
    const context = (err as { context?: { line?: number } }).context;
    throw new ParseError((err as Error).message.replace(/ on line \d+\.?$/, ''), source, context?.line, undefined, {
      cause: err,
    });
  }
}
