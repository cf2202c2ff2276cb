import type * as RDF from '@rdfjs/types';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataFactory, Parser, Store } from 'n3';
import { ParseError, ToolkitError } from '../errors.js';

/** A set of SHACL shapes read from Turtle files. */
export interface ShapesGraph {
  /** The quads of every shapes file. */
  readonly dataset: Store;
  /** The files read, in the order read (sorted by name). */
  readonly files: readonly string[];
}

/** The `shapes/` directory shipped with the package. */
export const DEFAULT_SHAPES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shapes');

/**
 * Reads every `*.ttl` file of a directory (or one Turtle file) into one
 * shapes graph. Fails with `io` when the directory or file cannot be read or
 * holds no Turtle file, and with `parse` (line and column) on bad Turtle.
 *
 * @param dir A directory of `.ttl` files or a single `.ttl` file. Defaults to the shipped `shapes/`.
 */
export async function loadShapes(dir: string = DEFAULT_SHAPES_DIR): Promise<ShapesGraph> {
  let files: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    files = entries
      .filter((e) => e.isFile() && e.name.endsWith('.ttl'))
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
  if (files.length === 0) throw new ToolkitError(`no shapes (*.ttl) in ${dir}`, 'io', { details: { path: dir } });
  const dataset = new Store();
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new ToolkitError(`cannot read shapes file ${file}: ${(err as Error).message}`, 'io', { cause: err, details: { path: file } });
    }
    dataset.addQuads(parseShapesText(text, file));
  }
  // Shapes that target nothing find every input conforming: a wrong --shapes, not a success.
  const targeted = TARGETS.some((p) => dataset.countQuads(null, p, null, null) > 0) || dataset.countQuads(null, RDF_TYPE, RDFS_CLASS, null) > 0;
  if (!targeted) {
    throw new ToolkitError(
      `the shapes in ${dir} target nothing (no sh:targetClass, sh:targetNode, sh:targetSubjectsOf, sh:targetObjectsOf): every input would conform`,
      'parse',
      { details: { path: dir } },
    );
  }
  return { dataset, files };
}

const SH = 'http://www.w3.org/ns/shacl#';
const TARGETS = ['targetClass', 'targetNode', 'targetSubjectsOf', 'targetObjectsOf', 'target'].map((t) => DataFactory.namedNode(`${SH}${t}`));
const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const RDFS_CLASS = DataFactory.namedNode('http://www.w3.org/2000/01/rdf-schema#Class');

/** Parses one Turtle shapes document; bad Turtle becomes a {@link ParseError} naming the file and line. */
export function parseShapesText(text: string, source = '<shapes>'): RDF.Quad[] {
  try {
    return new Parser({ format: 'text/turtle', baseIRI: `file://${source}` }).parse(text);
  } catch (err) {
    const context = (err as { context?: { line?: number } }).context;
    throw new ParseError((err as Error).message.replace(/ on line \d+\.?$/, ''), source, context?.line, undefined, { cause: err });
  }
}
