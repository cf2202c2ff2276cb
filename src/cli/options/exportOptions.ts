import { isAbsolute, resolve } from 'node:path';
import { checkSinceDate } from '../../export/exportSince.js';
import { formatNameList, formatsWith, labelList, parseFormatName } from '../../formats.js';
import type { CliOption } from './CliOption.js';
import { PAGE_SIZE_MAX } from './commonOptions.js';

/** The kinds of store `--store` names (graphdb: rdf4j's layout). */
export const STORE_CHOICES = ['fuseki', 'virtuoso', 'rdf4j', 'graphdb', 'generic'] as const;

/** A path of the command line as the library wants it: absolute, against the run's folder. */
export const absolutePath = (path: string, cwd: string): string => (isAbsolute(path) ? path : resolve(cwd, path));

/** The flags of `export` (then the connection flags). */
export const EXPORT_OPTIONS: readonly CliOption[] = [
  {
    flags: '-q, --query <query>',
    type: 'text',
    required: true,
    help: 'the service query, e.g. \'keyword:"graphene" onlinedatefrom:2024-01-01\'',
  },
  {
    flags: '-f, --format <format>',
    type: 'string',
    parse: parseFormatName,
    help: `${formatNameList()} (default: from -o, else turtle)`,
  },
  {
    flags: '-o, --output <file>',
    type: 'string',
    toLibrary: absolutePath,
    help: 'output file (.gz compresses) (default: standard output, not resumable)',
  },
  { flags: '--max-records <n>', type: 'integer', min: 1, help: 'stop after N records' },
  {
    flags: '--concurrency <n>',
    type: 'integer',
    min: 1,
    max: 32,
    help: 'requests in flight at once, fixed (default: adapts, from 2, growing while pages wait on the network, halving on 429 or 5xx)',
  },
  {
    flags: '--page-size <n>',
    type: 'integer',
    min: 1,
    max: PAGE_SIZE_MAX,
    defaultHelp: '25, 20 on the open-access endpoint',
    help: `records per page (basic keys: at most 25, premium ${PAGE_SIZE_MAX}; a page size beyond the key's plan is lowered to it, with a warning)`,
  },
  {
    flags: '--state <file>',
    type: 'string',
    name: 'statePath',
    toLibrary: absolutePath,
    help: 'state file of a resumable export (default: <output>.state.json)',
  },
  { flags: '--resume', type: 'boolean', help: 'continue the export its state file describes' },
  {
    flags: '--restart',
    type: 'boolean',
    help: 'start again from the beginning although the state file says an earlier run is unfinished (its progress is lost); without --resume or --restart such a run is refused',
  },
  {
    flags: '--force',
    type: 'boolean',
    help: 'replace the finished dump of another export (another query or other options) at -o, or a non-empty file no export state describes; without it such a run is refused',
  },
  {
    flags: '--split-by <unit>',
    type: 'choice',
    choices: ['year', 'month'],
    help: 'harvest in date windows of a year or a month',
  },
  {
    flags: '--max-start <n>',
    type: 'integer',
    min: 1,
    default: 10_000,
    help: 'deepest start position the service serves; deeper queries are split into date windows',
  },
  {
    flags: '--meta <file>',
    type: 'string',
    name: 'metaPath',
    toLibrary: absolutePath,
    help: 'also write the provenance and dataset description (PROV-O, VoID, DCAT) to FILE',
  },
  {
    flags: '--license <iri>',
    type: 'string',
    help: "the licence of the dump, stated as dcterms:license in its description (default: none stated; the service's terms are not known to the tool)",
  },
  {
    flags: '--rejects <file>',
    type: 'string',
    name: 'rejectsPath',
    toLibrary: absolutePath,
    help: 'write records that cannot be mapped to FILE (JSON lines)',
  },
  {
    flags: '--shard-records <n>',
    type: 'integer',
    min: 1,
    help: 'cut the dump into shards of at most N records, each a whole document: -o dump.nq.gz writes dump.00001.nq.gz, ... and dump.manifest.json; --resume never rewrites a finished shard (needs -o; see docs/shards.md)',
  },
  {
    flags: '--shard-size <bytes>',
    type: 'bytes',
    name: 'shardBytes',
    help: 'cut the dump into shards of at most this much text before compression (a number of bytes, or with K, M or G: 512M); with --shard-records, whichever comes first (needs -o)',
  },
  {
    flags: '--graph <iri>',
    type: 'string',
    help: `${labelList(formatsWith('anyGraph'))}: put the records in this named graph`,
  },
  {
    flags: '--graph-per-record',
    type: 'boolean',
    help: `${labelList(formatsWith('namedGraphs'))}: put each record in its own named graph <base>record/<doi>, so a store can replace one record as a whole`,
  },
  {
    flags: '--since <date>',
    type: 'string',
    parse: (v) => checkSinceDate(v, '--since'),
    help: `a delta: only the records the service lists as online on or after DATE (YYYY-MM-DD; adds onlinedatefrom:DATE to the query), each in its own named graph (${labelList(formatsWith('namedGraphs'))}), for \`load --upsert\`; the service has no modification date, so records changed after they went online are not listed (see docs/incremental.md)`,
  },
  {
    flags: '--changes-since',
    type: 'boolean',
    help: 'a delta since the last export: --since the day the finished export in the state file (--state, default <output>.state.json) started, if it was of the same query (its last day is harvested again); with none there, everything is harvested; the description says which dump it follows',
  },
  {
    flags: '--base <iri>',
    type: 'string',
    help: 'base of the IRIs minted for nodes a record owns (default: https://w3id.org/scholarly-rdf/)',
  },
  {
    flags: '--validate',
    type: 'boolean',
    help: 'check every record against the SHACL shapes; records that do not conform go to the rejects',
  },
  { flags: '--quiet', type: 'boolean', name: false, help: 'no progress and no summary' },
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'at the end, print a summary as one line of JSON (counts, paths, timings): on stdout, or on stderr when the dump goes to stdout',
  },
  {
    flags: '--load <url>',
    type: 'string',
    toLibrary: () => undefined,
    help: 'then load the finished dump into this triple store (see `load`; needs -o)',
  },
  {
    flags: '--store <kind>',
    type: 'choice',
    choices: STORE_CHOICES,
    default: 'fuseki',
    name: false,
    help: 'with --load: URL conventions of the store',
  },
  {
    flags: '--load-graph <iri>',
    type: 'string',
    name: false,
    help: 'with --load: the graph to load into (default: the dump\'s dataset IRI + "/graph")',
  },
  { flags: '--replace', type: 'boolean', name: false, help: 'with --load: empty the graph first' },
];
