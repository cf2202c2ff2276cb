import { type Command, Option } from 'commander';
import { type CliOption, addOptions, libraryName, longFlag } from './CliOption.js';
import { type CommandName, helpEnding } from './commandNotes.js';
import { CONNECTION_OPTIONS, READ_LIMIT_OPTIONS } from './commonOptions.js';
import { CONVERT_OPTIONS } from './convertOptions.js';
import { EXPORT_OPTIONS } from './exportOptions.js';
import { LOAD_OPTIONS } from './loadOptions.js';
import { GET_OPTIONS, SEARCH_OPTIONS } from './searchOptions.js';
import { SERVE_OPTIONS } from './serveOptions.js';
import { TERM_OPTIONS } from './termOptions.js';
import { VALIDATE_OPTIONS } from './validateOptions.js';

export type { CommandName } from './commandNotes.js';

/**
 * Every flag of every command, in the order `--help` lists them: the one
 * place flags are declared. Commander, the flag names in messages
 * ({@link flagOf}) and the flag tables of docs/cli.md are made from it.
 */
export const OPTION_TABLE: Readonly<Record<CommandName, readonly CliOption[]>> = {
  // export first: where two commands give one library option different flags, messages name export's.
  export: [...EXPORT_OPTIONS, ...CONNECTION_OPTIONS],
  convert: [...CONVERT_OPTIONS, ...READ_LIMIT_OPTIONS],
  search: [...SEARCH_OPTIONS, ...CONNECTION_OPTIONS],
  get: [...GET_OPTIONS, ...CONNECTION_OPTIONS],
  validate: [...VALIDATE_OPTIONS, ...READ_LIMIT_OPTIONS],
  load: [...LOAD_OPTIONS, ...READ_LIMIT_OPTIONS],
  term: TERM_OPTIONS,
  serve: SERVE_OPTIONS,
};

/** Flags everyone knows by their short spelling: messages use it. */
const SAID_SHORT = new Set(['-o', '-f']);

/** Library option name → the flag messages name it by (`statePath` → `--state`). */
const FLAG_OF: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>([['credentials', '--user/--password']]);
  for (const specs of Object.values(OPTION_TABLE)) {
    for (const spec of specs) {
      const name = libraryName(spec);
      if (name === undefined || map.has(name)) continue;
      const short = new Option(spec.flags).short;
      map.set(name, short !== undefined && SAID_SHORT.has(short) ? short : longFlag(spec));
    }
  }
  return map;
})();

/** The flag of a library option, undefined for a name that is not one. */
export function flagOf(name: string): string | undefined {
  return FLAG_OF.get(name);
}

/** Adds a command's flags from the table, and the end of its `--help` (exit codes, environment). */
export function addCommandOptions(command: Command, name: CommandName, warn: (line: string) => void): Command {
  return addOptions(command, OPTION_TABLE[name], warn).addHelpText('after', helpEnding(name));
}
