import { Option } from 'commander';
import type { CliOption } from './CliOption.js';
import { COMMAND_NOTES } from './commandNotes.js';
import { OPTION_TABLE, type CommandName } from './optionTable.js';

/** A table cell: pipes escaped, on one line. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\s+/g, ' ');

/** The flags of one command as a Markdown table (the hidden and earlier spellings left out). */
function commandTable(specs: readonly CliOption[]): string[] {
  const rows = specs
    .filter((s) => !s.hidden && !s.deprecatedFor)
    .map((s) => {
      const flags = s.flags.split(/\s+</)[0]!;
      const value = /<([^>]+)>/.exec(s.flags)?.[1] ?? '';
      const def = s.defaultHelp ?? (s.default === undefined ? '' : String(s.default));
      const choices = s.choices ? ` (${s.choices.join(', ')})` : '';
      return `| \`${flags}\` | ${value ? `${cell(value)}${s.type === 'string' || s.type === 'text' ? '' : ` (${s.type})`}` : ''} | ${def ? `\`${cell(def)}\`` : ''} | ${cell(s.help + choices)} |`;
    });
  return ['| flag | value | default | what it does |', '|---|---|---|---|', ...rows];
}

/** Every command's flags, exit codes and environment: the body of docs/cli.md (test/cli/options/flagTables.test.ts keeps it so). */
export function flagReference(): string {
  const out: string[] = [];
  for (const command of Object.keys(OPTION_TABLE) as CommandName[]) {
    const notes = COMMAND_NOTES[command];
    out.push(`## \`${command}\``, '', ...commandTable(OPTION_TABLE[command]), '');
    out.push(`Exit codes: ${notes.exitCodes.map(([code, meaning]) => `${code} ${meaning}`).join('; ')}.`, '');
    out.push(
      `Environment: ${notes.env.length === 0 ? 'none read' : notes.env.map(([name, meaning]) => `\`${name}\` (${meaning})`).join(', ')}.`,
      '',
    );
  }
  return out.join('\n');
}

/** The short flags and what each means, in every command that has it: the README's table. */
export function shortFlagTable(): string {
  const rows = new Map<string, { long: string; commands: string[] }>();
  for (const [command, specs] of Object.entries(OPTION_TABLE)) {
    for (const spec of specs.filter((s) => !s.deprecatedFor)) {
      const opt = new Option(spec.flags);
      if (opt.short === undefined) continue;
      const row = rows.get(opt.short) ?? { long: opt.long!, commands: [] };
      row.commands.push(command);
      rows.set(opt.short, row);
    }
  }
  return [
    '| short | long | in |',
    '|---|---|---|',
    ...[...rows].map(([short, r]) => `| \`${short}\` | \`${r.long}\` | ${r.commands.join(', ')} |`),
  ].join('\n');
}
