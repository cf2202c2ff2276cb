import { oneLine } from '../pipeline/Rejection.js';

/**
 * The lines a command prints of the conflicts a run found (`convert`, `export`: their summaries' `conflicts`
 * and `conflictNotes`): each note kept, then how many more there are and where they are (`more`).
 */
export function conflictLines(
  command: string,
  s: { conflicts: number; conflictNotes: readonly string[] },
  more: string,
): string[] {
  const lines = s.conflictNotes.map((note) => oneLine(`${command}: ${note}`, 2000));
  if (s.conflicts > s.conflictNotes.length)
    lines.push(`${command}: ${s.conflicts - s.conflictNotes.length} more conflicts${more}`);
  return lines;
}
