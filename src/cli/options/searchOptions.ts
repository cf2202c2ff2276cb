import { formatNameList } from '../../formats.js';
import type { CliOption } from './CliOption.js';
import { PAGE_SIZE_MAX } from './commonOptions.js';

/** The flags of `search` (then the connection flags). */
export const SEARCH_OPTIONS: readonly CliOption[] = [
  { flags: '-q, --query <query>', type: 'text', required: true, help: 'the service query' },
  { flags: '-s, --start <n>', type: 'integer', min: 1, default: 1, help: 'first record (1-based)' },
  {
    flags: '-p, --page-size <n>',
    type: 'integer',
    min: 1,
    max: PAGE_SIZE_MAX,
    default: 10,
    help: 'records on the page',
  },
  { flags: '--json', type: 'boolean', name: false, help: 'print the page as the service sent it (the key removed)' },
];

/** The flags of `get` (then the connection flags). */
export const GET_OPTIONS: readonly CliOption[] = [
  { flags: '-f, --format <format>', type: 'string', default: 'turtle', help: formatNameList() },
  { flags: '--base <iri>', type: 'string', help: 'base of the IRIs minted for nodes the record owns' },
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'also print a summary as one line of JSON on stderr (the DOI, format, statements; stdout carries the RDF)',
  },
];
