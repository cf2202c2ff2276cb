import { escapeInvisible } from '../pipeline/Rejection.js';

/**
 * Text made safe for a terminal: every line kept, and within lines every
 * invisible character (an escape that could move the cursor, retitle the
 * window or hide what follows; a bidirectional override; a lone surrogate)
 * written as `\uXXXX`. Everything the CLI writes to stderr goes through it,
 * so a file name, DOI or field value echoed from the input is shown, never
 * obeyed.
 */
export function printable(text: string): string {
  return text.split('\n').map(escapeInvisible).join('\n');
}
