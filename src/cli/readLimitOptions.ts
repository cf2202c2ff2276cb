import type { ReadLimits } from '../parse/limits.js';

/** The flags of {@link ReadLimits}, as commander gives them. */
export interface ReadLimitFlags {
  maxDepth?: number;
  maxDocumentChars?: number;
}

/** The library options of the limit flags that were given. */
export function readLimitsFromFlags(flags: ReadLimitFlags): ReadLimits {
  return {
    ...(flags.maxDepth !== undefined ? { maxDepth: flags.maxDepth } : {}),
    ...(flags.maxDocumentChars !== undefined ? { maxDocumentChars: flags.maxDocumentChars } : {}),
  };
}
