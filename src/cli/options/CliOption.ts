import { Option, type Command } from 'commander';
import { parseBytes, parseInteger, parseNonEmpty, parseNumber, parseSeconds } from './optionValues.js';

/** What a flag takes: nothing (a switch), a text, or a value parsed by one of {@link parseInteger} and its kin. */
export type OptionType = 'boolean' | 'string' | 'text' | 'integer' | 'number' | 'seconds' | 'bytes' | 'choice' | 'list';

/**
 * One flag of one command, declared once (as npm-check-updates' `cli-options`):
 * what commander is given, what the library calls it, and what the README's
 * flag tables say. Commands read their flags from these declarations only
 * (`test/cli/options/optionTable.test.ts` fails on a flag declared elsewhere).
 */
export interface CliOption {
  /** Commander's flags: `-o, --output <file>`, `--quiet`, `--no-check`. */
  readonly flags: string;
  readonly type: OptionType;
  /** The help text (without the default, which {@link CliOption.default} prints). */
  readonly help: string;
  /**
   * The library option this flag becomes (the name library messages give it in backticks),
   * when it is not the flag's own name in camelCase; `false`: a flag of the command line only.
   */
  readonly name?: string | false;
  /** `integer`, `number`: the least value; `number`: more than it when `exclusiveMin`. */
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  /** `choice`: the values allowed. */
  readonly choices?: readonly string[];
  /** A parser of the value instead of the type's (it throws a `usage` error naming the flag). */
  readonly parse?: (value: string) => unknown;
  /** The library value of the parsed one (a unit, a path made absolute...). */
  readonly toLibrary?: (value: never, cwd: string) => unknown;
  /** The value when the flag is not given, printed as `(default: VALUE)`. */
  readonly default?: string | number | boolean;
  /** Printed as the default instead of the value (`auto`, `$SCHOLARLY_API_KEY`). */
  readonly defaultHelp?: string;
  readonly required?: boolean;
  /** Not listed by `--help` nor the flag tables. */
  readonly hidden?: boolean;
  /** An earlier spelling: hidden, its value goes to the flag named here, and its use prints a deprecation line. */
  readonly deprecatedFor?: string;
}

/** The long flag of a declaration (`--output`), or its short one when it has no long one (`-q`). */
export function longFlag(spec: CliOption): string {
  const opt = new Option(spec.flags);
  return opt.long ?? opt.short!;
}

/** The key of a flag's value in what commander gives (`--page-size`: `pageSize`, `--no-check`: `check`). */
export function attributeOf(spec: CliOption): string {
  return new Option(spec.flags).attributeName();
}

/** The library option a flag becomes, undefined for a flag of the command line only. */
export function libraryName(spec: CliOption): string | undefined {
  if (spec.name === false || spec.deprecatedFor) return undefined;
  return spec.name ?? attributeOf(spec);
}

/** The parser of a declaration's values (none for switches and plain texts). */
function parserOf(spec: CliOption): ((value: string, previous: unknown) => unknown) | undefined {
  const flag = longFlag(spec);
  if (spec.parse) return spec.parse;
  switch (spec.type) {
    case 'integer':
      return (v) => parseInteger(flag, v, spec.min ?? 0, spec.max);
    case 'number':
      return (v) => parseNumber(flag, v, spec.min ?? 0, spec.max, spec.exclusiveMin);
    case 'seconds':
      return (v) => parseSeconds(flag, v);
    case 'bytes':
      return (v) => parseBytes(flag, v);
    case 'text':
      return (v) => parseNonEmpty(flag, v);
    case 'list':
      return (v, previous) => [...((previous as string[] | undefined) ?? []), v];
    default:
      return undefined;
  }
}

/** The commander option of a declaration. */
export function commanderOption(spec: CliOption): Option {
  const opt = new Option(spec.flags, spec.help);
  const parse = parserOf(spec);
  if (parse) opt.argParser(parse);
  if (spec.choices) opt.choices([...spec.choices]);
  if (spec.default !== undefined) opt.default(spec.default, spec.defaultHelp ?? String(spec.default));
  else if (spec.defaultHelp !== undefined) opt.defaultValueDescription = spec.defaultHelp;
  if (spec.required) opt.makeOptionMandatory();
  if (spec.hidden || spec.deprecatedFor) opt.hideHelp();
  return opt;
}

/**
 * Adds the declared flags to a command. An earlier spelling that was used
 * gives its value to the flag that replaced it, and `warn` is told.
 */
export function addOptions(command: Command, specs: readonly CliOption[], warn: (line: string) => void): Command {
  for (const spec of specs) command.addOption(commanderOption(spec));
  const deprecated = specs.filter((s) => s.deprecatedFor !== undefined);
  if (deprecated.length > 0) {
    command.hook('preAction', (self) => {
      for (const spec of deprecated) {
        const key = attributeOf(spec);
        if (self.getOptionValueSource(key) !== 'cli') continue;
        const target = specs.find((s) => !s.deprecatedFor && longFlag(s) === spec.deprecatedFor)!;
        const targetKey = attributeOf(target);
        // The new spelling given too wins.
        if (self.getOptionValueSource(targetKey) !== 'cli')
          self.setOptionValueWithSource(targetKey, self.getOptionValue(key), 'cli');
        warn(
          `scholarly-rdf: ${spec.flags
            .split(/[ ,]+/)
            .filter((f) => f.startsWith('-'))
            .join(', ')} is deprecated here: use ${spec.deprecatedFor}`,
        );
      }
    });
  }
  return command;
}

/**
 * The library options of the flags that have a value (given, or a default),
 * each under its library name: what the commands passed one conditional
 * spread at a time. Flags of the command line only are left out.
 */
export function libraryOptions(specs: readonly CliOption[], values: object, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const name = libraryName(spec);
    if (name === undefined) continue;
    const value = (values as Record<string, unknown>)[attributeOf(spec)];
    if (value === undefined) continue;
    const library = spec.toLibrary ? spec.toLibrary(value as never, cwd) : value;
    if (library !== undefined) out[name] = library;
  }
  return out;
}
