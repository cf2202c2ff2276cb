import { DEFAULT_BASE } from '../../rdf/namespaces.js';
import type { CliOption } from './CliOption.js';
import { STORE_CHOICES } from './exportOptions.js';

/** The flags of `load`: the Graph Store load, then `--bulk`'s and `--upsert`'s (then the read limits). */
export const LOAD_OPTIONS: readonly CliOption[] = [
  {
    flags: '--endpoint <url>',
    type: 'string',
    help: 'the store: Fuseki dataset URL, Virtuoso server URL, RDF4J repository URL, or (generic) the Graph Store URL (required, but with --bulk)',
  },
  { flags: '--store <kind>', type: 'choice', choices: STORE_CHOICES, default: 'fuseki', help: 'URL conventions of the store' },
  {
    flags: '--graph <iri>',
    type: 'string',
    help: 'the graph to load into (default: the dump\'s void:/dcat:Dataset IRI + "/graph", else https://w3id.org/scholarly-rdf/graph/<file name>)',
  },
  { flags: '--replace', type: 'boolean', help: 'empty the graph first (DROP SILENT GRAPH)' },
  { flags: '--chunk-triples <n>', type: 'integer', min: 1, default: 50_000, help: 'triples per request' },
  { flags: '--chunk-format <format>', type: 'choice', choices: ['ntriples', 'turtle'], default: 'ntriples', help: 'syntax of the chunks sent' },
  { flags: '--concurrency <n>', type: 'integer', min: 1, default: 1, help: 'requests in flight at once' },
  { flags: '--user <name>', type: 'string', name: 'credentials', help: 'user name (Basic or Digest, as the store asks; with --bulk the SQL user, default dba) (default: $SCHOLARLY_STORE_USER)' },
  {
    flags: '--password <password>',
    type: 'string',
    name: 'credentials',
    help: "password (with --bulk the SQL user's, required); prefer $SCHOLARLY_STORE_PASSWORD (a flag shows in the process list)",
  },
  { flags: '--query-endpoint <url>', type: 'string', help: "SPARQL Query endpoint, instead of the store's convention (generic stores need it for the count)" },
  { flags: '--update-endpoint <url>', type: 'string', help: "SPARQL Update endpoint, instead of the store's convention" },
  {
    flags: '--state <file>',
    type: 'string',
    name: 'statePath',
    help: 'the load log recording acknowledged chunks (default: <first file name>.<hash of the files and the graph>.load-state.json in the current directory)',
  },
  { flags: '--resume', type: 'boolean', help: 'continue the load recorded in the load log after its last acknowledged chunk' },
  { flags: '--no-check', type: 'boolean', name: 'checkCount', help: "do not check the graph's triple count at the end" },
  {
    flags: '--request-timeout <seconds>',
    type: 'seconds',
    name: 'timeoutMs',
    default: 600,
    help: 'time limit of each request sending a chunk or emptying the graph (each try), in seconds',
  },
  { flags: '--timeout <seconds>', type: 'seconds', deprecatedFor: '--request-timeout', help: 'the same as --request-timeout (earlier name)' },
  {
    flags: '--count-timeout <seconds>',
    type: 'seconds',
    name: 'countTimeoutMs',
    default: 120,
    help: 'time limit of the count of the graph; a count that does not answer in it ends the load (exit 3) with what was loaded and the query to count by hand',
  },
  { flags: '--ignore-export-lock', type: 'boolean', help: 'load a dump even while an export is still writing it (its lock is held): only the part written so far is loaded' },
  { flags: '--retries <n>', type: 'integer', min: 0, default: 5, name: 'retry', help: 'retries of a failed request (5xx, 429, network), waiting 0.5 s, 1 s, 2 s, ... or as the store asks' },
  { flags: '--quiet', type: 'boolean', name: false, help: 'no progress (the summary is still printed)' },
  { flags: '--json', type: 'boolean', name: false, help: 'at the end, also print the summary as one line of JSON on stdout (counts, graph, timings)' },
  {
    flags: '--bulk',
    type: 'boolean',
    help: "load with the store's own bulk loader: --store virtuoso: ld_add + rdf_loader_run() over isql on the SQL port, the files read by the server; --store fuseki: Jena's tdb2.tdbloader builds the TDB2 database of --loc for Fuseki to serve; needs --graph; see docs/bulk-loading.md and docs/fuseki.md",
  },
  {
    flags: '--manifest <file>',
    type: 'string',
    help: '--bulk: the shard manifest of the dump (name.manifest.json): its shards are the files (then the file arguments may be left out), and the count is checked against it',
  },
  { flags: '--isql-host <host>', type: 'string', help: "--bulk: host of Virtuoso's SQL port (default: the --endpoint host name, else 127.0.0.1)" },
  { flags: '--isql-port <n>', type: 'integer', min: 1, max: 65_535, default: 1111, help: "--bulk: Virtuoso's SQL port (ServerPort in virtuoso.ini, not the HTTP port)" },
  { flags: '--jobs <n>', type: 'integer', min: 1, default: 2, help: '--bulk: rdf_loader_run() sessions at once' },
  {
    flags: '--server-dir <dir>',
    type: 'string',
    help: "--bulk: the folder the server sees the files in (a container's mount), listed in DirsAllowed of virtuoso.ini (default: each file's own folder)",
  },
  { flags: '--isql <path>', type: 'string', default: 'isql-vt', help: "--bulk: Virtuoso's isql client (isql in OpenLink's builds)" },
  { flags: '--loc <dir>', type: 'string', name: 'location', help: '--bulk --store fuseki: the TDB2 database folder to build or add to (created when missing; not while a Fuseki serves it)' },
  {
    flags: '--tdbloader <path>',
    type: 'string',
    defaultHelp: 'tdb2.tdbloader on PATH',
    help: "--bulk --store fuseki: Jena's tdb2.tdbloader script (apache-jena-X/bin/tdb2.tdbloader), or a folder of Jena's jars run with java",
  },
  {
    flags: '--upsert',
    type: 'boolean',
    help: 'the dumps hold record graphs (convert/export --graph-per-record): replace each of them in the store (a delta: the new state of the records that changed), in batches, resumably, counting each batch; see docs/incremental.md',
  },
  {
    flags: '--upsert-method <method>',
    type: 'choice',
    choices: ['put', 'update'],
    default: 'put',
    help: '--upsert: a Graph Store PUT of each graph, or one SPARQL Update (DROP SILENT GRAPH + INSERT DATA) per batch',
  },
  { flags: '--batch-graphs <n>', type: 'integer', min: 1, default: 200, help: '--upsert: most record graphs per batch' },
  { flags: '--batch-triples <n>', type: 'integer', min: 1, default: 50_000, help: '--upsert: a batch closes after the graph that brings it to this many triples' },
  { flags: '--base <iri>', type: 'string', default: DEFAULT_BASE, help: '--upsert: the base of the record graphs <base>record/<doi> (as given to convert or export)' },
];
