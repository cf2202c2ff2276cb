import { SERVICE_COMPATS } from '../../contract/endpoints.js';
import { extensionList } from '../../formats.js';
import { TERM_FORMATS } from '../../vocabulary/acceptHeader.js';
import type { CliOption } from './CliOption.js';

/** A share of requests, from 0 to 1. */
const share = (help: string): Omit<CliOption, 'flags'> => ({ type: 'number', min: 0, max: 1, help });

/** The flags of `serve`. */
export const SERVE_OPTIONS: readonly CliOption[] = [
  {
    flags: '--catalogue <file>',
    type: 'string',
    help: 'records to serve: NDJSON or a JSON array (default: the bundled sample, 300 records)',
  },
  {
    flags: '--port <n>',
    type: 'integer',
    min: 0,
    max: 65_535,
    default: 8080,
    help: 'port to listen on; 0 picks a free one',
  },
  { flags: '--host <host>', type: 'string', default: '127.0.0.1', help: 'interface to bind' },
  {
    flags: '--api-key <key>',
    type: 'list',
    name: 'apiKeys',
    help: "an accepted key, 'KEY' (basic: p<=25) or 'KEY:premium' (p<=100); repeatable (default: without --api-key and --keys-file, the key 'sample', premium)",
  },
  { flags: '--keys-file <file>', type: 'string', help: 'a file of keys, one per line (KEY or KEY:premium)' },
  {
    flags: '--rate <n>',
    type: 'number',
    min: 0,
    max: 1e6,
    default: 0,
    help: 'requests per second allowed per key (429 with Retry-After beyond); 0 = no limit',
  },
  {
    flags: '--retry-after <s>',
    type: 'integer',
    min: 0,
    max: 86_400,
    default: 1,
    help: 'Retry-After seconds sent with a 429',
  },
  {
    flags: '--vocab-dir <dir>',
    type: 'string',
    help: `directory of vocabulary files (<term>${extensionList(TERM_FORMATS, '/')}) (default: the package's vocab/)`,
  },
  {
    flags: '--vocab-path <path>',
    type: 'string',
    default: '/vocab',
    help: 'path under which vocabulary terms are served',
  },
  { flags: '--seed <n>', type: 'integer', min: 0, max: 2 ** 32 - 1, default: 1, help: 'seed of the injected faults' },
  {
    flags: '--latency <ms>',
    type: 'number',
    min: 0,
    max: 600_000,
    name: 'latencyMs',
    help: 'inject a delay before every answer',
  },
  { flags: '--fail-rate <x>', ...share('inject 500/503 answers in this share of requests (0-1)') },
  { flags: '--throttle-rate <x>', ...share('inject 429 answers with Retry-After in this share of requests (0-1)') },
  { flags: '--truncate-rate <x>', ...share('cut this share of 200 bodies mid-JSON (0-1)') },
  { flags: '--reset-rate <x>', ...share('drop the connection of this share of requests (0-1)') },
  {
    flags: '--compat <year>',
    type: 'choice',
    choices: SERVICE_COMPATS,
    default: '2026',
    help: 'answer as the service did in that year: 2026, a query with no hits is a 404 "No data was found for the given query." and basic keys may not use premium-only query fields (403); 2024, a 200 with total 0 and every field open, as the recorded responses show',
  },
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'once listening, print where as one line of JSON on stdout (url, port, records, ...) instead of the bare URL',
  },
];
