import { DEFAULT_BASE_URL, MAX_PAGE_SIZE } from '../../client/ApiClient.js';
import { ENDPOINT_NAMES, PLANS } from '../../contract/endpoints.js';
import type { CliOption } from './CliOption.js';

/** The flags of the commands that ask the service (`export`, `search`, `get`). */
export const CONNECTION_OPTIONS: readonly CliOption[] = [
  {
    flags: '--sample',
    type: 'boolean',
    name: false,
    help: 'use the bundled sample catalogue through the local service, in-process: no key, no network',
  },
  {
    flags: '--api-key <key>',
    type: 'string',
    help: 'the service API key (default: $SCHOLARLY_API_KEY, else $SPRINGERNATURE_API_KEY)',
  },
  { flags: '--base-url <url>', type: 'string', help: `base URL of the service (default: ${DEFAULT_BASE_URL})` },
  {
    flags: '--endpoint <name>',
    type: 'choice',
    choices: ENDPOINT_NAMES,
    default: 'meta-v2',
    help: 'record endpoint (openaccess: open-access records only, at most 20 a page)',
  },
  {
    flags: '--plan <plan>',
    type: 'choice',
    choices: PLANS,
    defaultHelp: 'unknown: the service says',
    help: "the key's plan: basic refuses a query with a premium-only field (year:, subject:, ...) before the first request and keeps pages to 25",
  },
  {
    flags: '--retries <n>',
    type: 'integer',
    min: 0,
    max: 100,
    default: 5,
    name: 'retryPolicy',
    help: 'retries of a failed request (5xx, 429, network, bad body)',
  },
  { flags: '--rate <n>', type: 'number', min: 0, exclusiveMin: true, help: 'at most N requests per second' },
  { flags: '--timeout <seconds>', type: 'seconds', default: 30, name: 'timeoutMs', help: 'time limit of one request' },
  {
    flags: '--verbose',
    type: 'boolean',
    name: false,
    help: 'say each request on stderr: its URL (the key left out), status and time',
  },
];

/** The flags of the limits of what is read at once (commands that read inputs). */
export const READ_LIMIT_OPTIONS: readonly CliOption[] = [
  {
    flags: '--max-depth <n>',
    type: 'integer',
    min: 1,
    help: 'levels of nesting read (JSON records, JSON-LD, RDF/XML); deeper input is refused, naming the file (default: 64)',
  },
  {
    flags: '--max-document-chars <n>',
    type: 'integer',
    min: 1,
    help: 'characters of one JSON document, JSON-LD node, line of Turtle/N-Triples/N-Quads or long string of Turtle/TriG held at once; larger is refused, naming the file (default: 8388608, 8 MiB)',
  },
];

/** `-q` of the commands that only read files (convert, validate): `--quiet` as it was spelled before, kept working. */
export const QUIET_ALIAS: CliOption = {
  flags: '-q',
  type: 'boolean',
  deprecatedFor: '--quiet',
  help: 'the same as --quiet (earlier; -q is --query in export and search)',
};

/** The largest page a key may ask for. */
export const PAGE_SIZE_MAX = MAX_PAGE_SIZE;
