import { FORMATS, extensionList } from '../../formats.js';
import { PREFERRED_TERM_FORMATS } from '../../vocabulary/acceptHeader.js';
import { DEFAULT_VOCAB_URL } from '../../vocabulary/fetchTerm.js';
import type { CliOption } from './CliOption.js';

/** The flags of `term`. */
export const TERM_OPTIONS: readonly CliOption[] = [
  {
    flags: '--vocab-url <url>',
    type: 'string',
    default: DEFAULT_VOCAB_URL,
    help: 'the vocabulary base URL; the term is at <url>/<name>',
  },
  {
    flags: '--accept <media>',
    type: 'string',
    help: 'what to ask for: a media type, a format name or a whole Accept header (default: every format, q-weighted)',
  },
  {
    flags: '-f, --format <format>',
    type: 'string',
    help: `output format: ${FORMATS.map((f) => f.format).join(', ')} (default: as received)`,
  },
  { flags: '-o, --output <file>', type: 'string', help: 'write the term to a file instead of standard output' },
  { flags: '--offline', type: 'boolean', help: 'use the copy shipped in vocab/ instead of the network' },
  {
    flags: '--check',
    type: 'boolean',
    help: 'fetch all four formats, report whether they are the same graph and whether it is the shipped one (exit 1 if not)',
  },
  {
    flags: '--timeout <seconds>',
    type: 'seconds',
    default: 30,
    name: 'timeoutMs',
    help: 'time limit of each HTTP request, in seconds (as in export, search, get)',
  },
  {
    flags: '--no-fallback',
    type: 'boolean',
    name: 'fallbackExtensions',
    help: `after a 404/406, do not try <url>/<name>${extensionList(PREFERRED_TERM_FORMATS, ', ')}`,
  },
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'also print a summary as one line of JSON: on stdout with -o or --check (instead of its report), else on stderr',
  },
];
