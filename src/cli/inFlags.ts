import { flagOf } from './options/optionTable.js';

/**
 * A library message in the command line's words. The library names its
 * options in backticks (`` `statePath` ``); each name the option table knows
 * becomes its flag (`--state`). Other backticked text (a code span, a value)
 * stays as it is.
 */
export function inFlags(message: string): string {
  const parts = message.split('`');
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const inner = parts[i]!;
    const after = parts[i + 1];
    if (after === undefined) return `${out}\`${inner}`; // an unpaired backtick
    out += (flagOf(inner) ?? `\`${inner}\``) + after;
  }
  return out;
}
