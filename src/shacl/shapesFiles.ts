import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatInfo } from '../formats.js';

// Apart from loadShapes (and its n3): a run that does not validate asks only which files are shapes.

/** The `shapes/` directory shipped with the package. */
export const DEFAULT_SHAPES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shapes');

/** Whether a file of a shapes folder holds shapes: the Turtle files (`.ttl`) are read, the others left alone. */
export function isShapesFileName(name: string): boolean {
  return name.endsWith(`.${formatInfo('turtle').extensions[0]!}`);
}
