import type { Command } from 'commander';
import type { ReadLimits } from '../parse/limits.js';
import { int } from './connection.js';

/** The flags of {@link ReadLimits}, as commander gives them. */
export interface ReadLimitFlags {
  maxDepth?: number;
  maxDocumentChars?: number;
}

/** Adds `--max-depth` and `--max-document-chars` (the limits of what is read at once) to a command that reads inputs. */
export function addReadLimitOptions(command: Command): Command {
  return command
    .option('--max-depth <n>', 'levels of nesting read (JSON records, JSON-LD, RDF/XML); deeper input is refused, naming the file (default: 64)', int('--max-depth', 1))
    .option('--max-document-chars <n>', 'characters of one JSON document, JSON-LD node or line of Turtle/N-Triples/N-Quads held at once; larger is refused, naming the file (default: 268435456, 256 MiB)', int('--max-document-chars', 1));
}

/** The library options of the limit flags that were given. */
export function readLimitsFromFlags(flags: ReadLimitFlags): ReadLimits {
  return {
    ...(flags.maxDepth !== undefined ? { maxDepth: flags.maxDepth } : {}),
    ...(flags.maxDocumentChars !== undefined ? { maxDocumentChars: flags.maxDocumentChars } : {}),
  };
}
