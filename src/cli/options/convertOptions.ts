import { FORMAT_NAMES, extensionList, formatsWith, labelList, parseFormatName } from '../../formats.js';
import type { CliOption } from './CliOption.js';
import { QUIET_ALIAS } from './commonOptions.js';

/** The names `-f` of `convert` takes: the formats and their common short names. */

/** The flags of `convert` (then the read limits). */
export const CONVERT_OPTIONS: readonly CliOption[] = [
  {
    flags: '-f, --format <format>',
    type: 'choice',
    choices: FORMAT_NAMES,
    toLibrary: parseFormatName,
    help: 'output format (default: from the -o extension, else turtle)',
  },
  {
    flags: '-o, --output <file>',
    type: 'string',
    help: `output file (${extensionList()}, optionally .gz) (default: standard output)`,
  },
  {
    flags: '--rejects <file>',
    type: 'string',
    name: 'rejectsPath',
    help: 'write rejected records as JSON lines with the reason (default: <output>.rejects.jsonl when -o is given)',
  },
  {
    flags: '--base <iri>',
    type: 'string',
    help: 'base of the IRIs minted for authors, journals, ... (default: https://w3id.org/scholarly-rdf/)',
  },
  {
    flags: '--schema-https',
    type: 'boolean',
    name: 'schemaScheme',
    toLibrary: (https: boolean) => (https ? 'https' : 'http'),
    help: 'use https://schema.org/ instead of http://schema.org/',
  },
  {
    flags: '--graph <iri>',
    type: 'string',
    help: `${labelList(formatsWith('anyGraph'))}: the graph to put the triples in`,
  },
  {
    flags: '--graph-per-record',
    type: 'boolean',
    help: `${labelList(formatsWith('namedGraphs'))}: put each record in its own named graph <base>record/<doi>, so a store can replace one record as a whole`,
  },
  {
    flags: '--jsonld-context <url>',
    type: 'string',
    help: 'JSON-LD: reference the context by this URL instead of embedding it',
  },
  {
    flags: '--notes <file>',
    type: 'string',
    name: 'notesPath',
    help: 'write the notes of each written record (what was changed or left out, and why) as JSON lines',
  },
  {
    flags: '--validate',
    type: 'boolean',
    help: 'check every record against the SHACL shapes (in a worker thread when the machine has two cores or more, unless --jobs 1); records that do not conform go to the rejects, not the output',
  },
  {
    flags: '--shapes <dir>',
    type: 'string',
    name: 'shapesDir',
    help: 'with --validate: shapes of your own instead of the shipped ones',
  },
  {
    flags: '--shard-records <n>',
    type: 'integer',
    min: 1,
    help: 'cut the output into shards of at most N records, each a whole document: -o dump.nq.gz writes dump.00001.nq.gz, dump.00002.nq.gz, ... and dump.manifest.json (needs -o; see docs/shards.md)',
  },
  {
    flags: '--shard-size <bytes>',
    type: 'bytes',
    name: 'shardBytes',
    help: 'cut the output into shards of at most this much text before compression (a number of bytes, or with K, M or G: 512M); with --shard-records, whichever comes first (needs -o)',
  },
  {
    flags: '-j, --jobs <n>',
    type: 'integer',
    min: 1,
    help: "read, map and write records in N worker threads (at most one per CPU core; the output is the same byte for byte); not above 1 with --validate (1: validate in this thread too) or with shards (default: one per core, at most 8, for inputs of 16 MiB of text or more, a .gz file's estimated, without --validate or shards; else 1)",
  },
  { flags: '--strict', type: 'boolean', help: 'stop at the first rejected record' },
  { flags: '--quiet', type: 'boolean', name: false, help: 'no summary on standard error' },
  QUIET_ALIAS,
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'at the end, print the summary as one line of JSON (counts, paths, timings): on stdout with -o FILE, else on stderr',
  },
];
