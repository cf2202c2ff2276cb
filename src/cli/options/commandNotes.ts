/** The commands of the CLI. */
export type CommandName = 'convert' | 'export' | 'search' | 'get' | 'validate' | 'load' | 'term' | 'serve';

/** What `--help` of a command ends with: its exit codes and the environment variables it reads. */
export interface CommandNotes {
  readonly exitCodes: readonly (readonly [code: number, meaning: string])[];
  readonly env: readonly (readonly [name: string, meaning: string])[];
}

const USAGE = [2, 'bad usage (an unknown flag, a bad value)'] as const;
const INTERRUPTED = [130, 'interrupted (Ctrl-C)'] as const;
const KEY_ENV = [
  ['SCHOLARLY_API_KEY', 'the service API key, when --api-key is not given'],
  ['SPRINGERNATURE_API_KEY', "the same (the official client's name), read when SCHOLARLY_API_KEY is not set"],
] as const;
const PROXY_ENV = [
  ['HTTPS_PROXY, HTTP_PROXY', 'the proxy of requests (https:, http:)'],
  ['NO_PROXY', 'hosts reached without the proxy'],
] as const;
const STORE_ENV = [
  ['SCHOLARLY_STORE_USER', 'the store user, when --user is not given'],
  ['SCHOLARLY_STORE_PASSWORD', 'the store password, when --password is not given'],
] as const;

/** The exit codes and environment of each command (README "Errors and exit codes" has them all). */
export const COMMAND_NOTES: Readonly<Record<CommandName, CommandNotes>> = {
  export: {
    exitCodes: [
      [0, 'the dump is written (and loaded, with --load)'],
      [1, "records were rejected, fewer were harvested than the service reported, or the load's count did not match"],
      USAGE,
      [3, 'the service or the store refused or failed (key, plan, quota, network)'],
      [4, 'a file could not be read or written'],
      [6, 'the state file is of another run: --resume or --restart'],
      INTERRUPTED,
    ],
    env: [...KEY_ENV, ...PROXY_ENV, ...STORE_ENV],
  },
  convert: {
    exitCodes: [
      [0, 'all records written'],
      [1, 'some records rejected (see --rejects)'],
      USAGE,
      [4, 'an input could not be read or parsed'],
      INTERRUPTED,
    ],
    env: [],
  },
  search: {
    exitCodes: [
      [0, 'the page is printed'],
      USAGE,
      [3, 'the service refused or failed (key, plan, quota, network)'],
      INTERRUPTED,
    ],
    env: [...KEY_ENV, ...PROXY_ENV],
  },
  get: {
    exitCodes: [
      [0, 'the record is printed'],
      [1, 'the record cannot be written'],
      USAGE,
      [3, 'no such record, or the service refused or failed'],
      INTERRUPTED,
    ],
    env: [...KEY_ENV, ...PROXY_ENV],
  },
  validate: {
    exitCodes: [
      [0, 'every record conforms'],
      [1, 'results of the --fail-on severity or worse'],
      USAGE,
      [4, 'an input could not be read or parsed'],
      INTERRUPTED,
    ],
    env: [],
  },
  load: {
    exitCodes: [
      [0, 'loaded (and the count is as expected)'],
      [1, 'the count of the graph did not match'],
      USAGE,
      [3, 'the store refused or failed, or its count did not answer in time'],
      [4, 'an input could not be read, or (--bulk) a file was not loaded'],
      [6, 'the load log is of another load (--resume)'],
      INTERRUPTED,
    ],
    env: [...STORE_ENV, ...PROXY_ENV],
  },
  term: {
    exitCodes: [
      [0, 'the term is printed (--check: the formats agree with each other and the shipped copy)'],
      [1, '--check: they do not'],
      USAGE,
      [3, 'the vocabulary could not be fetched (network, 404, 406)'],
      [4, 'what came back could not be parsed'],
      INTERRUPTED,
    ],
    env: [...PROXY_ENV],
  },
  serve: {
    exitCodes: [
      [0, 'stopped (Ctrl-C)'],
      USAGE,
      [4, 'the catalogue could not be read, or the port could not be listened on'],
    ],
    env: [],
  },
};

/** The end of a command's `--help`: its exit codes, then the environment variables it reads. */
export function helpEnding(command: CommandName): string {
  const notes = COMMAND_NOTES[command];
  const width = Math.max(...notes.env.map(([name]) => name.length));
  const lines = [
    '',
    'Exit codes:',
    ...notes.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(3)}  ${meaning}`),
    '',
    'Environment:',
  ];
  if (notes.env.length === 0) lines.push('  none read');
  for (const [name, meaning] of notes.env) lines.push(`  ${name.padEnd(width)}  ${meaning}`);
  return lines.join('\n');
}
