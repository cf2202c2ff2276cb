import { Option, type Command } from 'commander';
import { isAbsolute, resolve } from 'node:path';
import type { CliContext } from '../CliContext.js';
import { timeoutSeconds } from '../optionValues.js';
import { ApiClient, DEFAULT_BASE_URL, MAX_PAGE_SIZE, type ApiClientOptions, type Endpoint } from '../../client/ApiClient.js';
import type { SplitUnit } from '../../client/dateWindows.js';
import { ToolkitError, redact } from '../../errors.js';
import { exportRdf } from '../../export/exportRdf.js';
import type { ExportOptions } from '../../export/exportRdf.js';
import { ExportReporter } from '../../export/ExportReporter.js';
import { parseFormatName } from '../../formats.js';
import { mapRecord } from '../../mapping/mapRecord.js';
import { normalizeRecord } from '../../record/normalizeRecord.js';
import { serializerFor } from '../../serialize/serializers.js';

/** Where to get a key, said whenever one is missing. */
export const NO_KEY_MESSAGE =
  'no API key: pass --api-key KEY or set the SCHOLARLY_API_KEY environment variable (get a free key at https://dev.springernature.com), ' +
  'or add --sample to run against the bundled sample catalogue offline';

interface ConnectionOptions {
  sample?: boolean;
  apiKey?: string;
  baseUrl?: string;
  endpoint?: Endpoint;
  retries?: number;
  rate?: number;
  timeout?: number;
}

function int(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new ToolkitError(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got "${value}"`, 'usage');
    return n;
  };
}

function positive(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new ToolkitError(`${name} must be a positive number, got "${value}"`, 'usage');
    return n;
  };
}

function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--sample', 'use the bundled sample catalogue through the local service, in-process: no key, no network')
    .option('--api-key <key>', 'the service API key (default: $SCHOLARLY_API_KEY)')
    .option('--base-url <url>', `base URL of the service (default: ${DEFAULT_BASE_URL})`)
    .addOption(new Option('--endpoint <name>', 'record endpoint').choices(['meta-v2', 'meta-v1', 'metadata-v1']).default('meta-v2'))
    .option('--retries <n>', 'retries of a failed request (5xx, 429, network, bad body)', int('--retries', 0, 100), 5)
    .option('--rate <n>', 'at most N requests per second', positive('--rate'))
    .option('--timeout <seconds>', 'time limit of one request', (v: string) => timeoutSeconds('--timeout', v), 30);
}

/** Builds the client options (starting the in-process sample service when asked); `close` stops it. */
async function connect(opts: ConnectionOptions, ctx: CliContext, onRetry?: ApiClientOptions['onRetry']): Promise<{ client: ApiClient; key: string | undefined; close: () => Promise<void> }> {
  let close = async () => undefined as void;
  let baseUrl = opts.baseUrl;
  let key = opts.apiKey ?? (ctx.io.env['SCHOLARLY_API_KEY'] || undefined);
  if (opts.sample) {
    if (opts.baseUrl) throw new ToolkitError('--sample and --base-url do not go together', 'usage');
    if (opts.apiKey) throw new ToolkitError('--sample uses the sample service\'s own key: drop --api-key', 'usage');
    const server = await import('../../server/index.js');
    const running = await server.startServer({ ...server.sampleCatalogueOptions(), host: '127.0.0.1', port: 0 });
    baseUrl = running.url;
    key = server.SAMPLE_API_KEY;
    close = () => running.close(100);
  } else if (!key) {
    throw new ToolkitError(NO_KEY_MESSAGE, 'auth');
  }
  const client = new ApiClient({
    apiKey: key,
    baseUrl: baseUrl ?? DEFAULT_BASE_URL,
    endpoint: opts.endpoint ?? 'meta-v2',
    retryPolicy: { retries: opts.retries ?? 5 },
    ...(opts.rate ? { rate: opts.rate } : {}),
    timeoutMs: (opts.timeout ?? 30) * 1000,
    ...(onRetry ? { onRetry } : {}),
    keyIsPublic: Boolean(opts.sample),
  });
  // the sample key is public: nothing to hide (hiding it would garble texts that contain "sample")
  return { client, key: opts.sample ? undefined : key, close };
}

function abs(ctx: CliContext, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return isAbsolute(path) ? path : resolve(ctx.io.cwd, path);
}

/** Wraps an action so every message it lets out has the key removed. */
async function keySafe(secrets: () => (string | undefined)[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof ToolkitError) {
      const clean = redact(err.message, secrets());
      if (clean !== err.message) throw new ToolkitError(clean, err.code, { details: JSON.parse(redact(JSON.stringify(err.details), secrets())) as Record<string, unknown> });
    }
    throw err;
  }
}

/** Registers `export`, `search` and `get`. */
export function registerExport(program: Command, ctx: CliContext): void {
  const exportCmd = program
    .command('export')
    .description('harvest every record of a query into one RDF dump (resumable)')
    .requiredOption('-q, --query <query>', 'the service query, e.g. \'keyword:"graphene" onlinedatefrom:2024-01-01\'')
    .option('-f, --format <format>', 'turtle, ntriples, nquads, jsonld or rdfxml (default: from -o, else turtle)')
    .option('-o, --output <file>', 'output file (.gz compresses); default stdout (not resumable)')
    .option('--max-records <n>', 'stop after N records', int('--max-records', 1))
    .option('--concurrency <n>', 'pages fetched ahead at once', int('--concurrency', 1, 32), 2)
    .option('--page-size <n>', `records per page (basic keys: at most 25; premium ${MAX_PAGE_SIZE})`, int('--page-size', 1, MAX_PAGE_SIZE), 25)
    .option('--state <file>', 'state file of a resumable export (default: <output>.state.json)')
    .option('--resume', 'continue the export its state file describes')
    .addOption(new Option('--split-by <unit>', 'harvest in date windows of a year or a month').choices(['year', 'month']))
    .option('--max-start <n>', 'deepest start position the service serves; deeper queries are split into date windows', int('--max-start', 1), 10_000)
    .option('--meta <file>', 'also write the provenance and dataset description (PROV-O, VoID, DCAT) to FILE')
    .option('--license <iri>', 'the licence of the dump, stated as dcterms:license in its description (default: none stated; the service\'s terms are not known to the tool)')
    .option('--rejects <file>', 'write records that cannot be mapped to FILE (JSON lines)')
    .option('--graph <iri>', 'N-Quads: put the records in this named graph')
    .option('--graph-per-record', 'N-Quads or JSON-LD: put each record in its own named graph <base>record/<doi>, so a store can replace one record as a whole')
    .option('--base <iri>', 'base of the IRIs minted for nodes a record owns (default: https://w3id.org/scholarly-rdf/)')
    .option('--validate', 'check every record against the SHACL shapes; records that do not conform go to the rejects')
    .option('--quiet', 'no progress and no summary')
    .option('--load <url>', 'then load the finished dump into this triple store (see `load`; needs -o)')
    .addOption(new Option('--store <kind>', 'with --load: URL conventions of the store').choices(['fuseki', 'virtuoso', 'rdf4j', 'graphdb', 'generic']).default('fuseki'))
    .option('--load-graph <iri>', 'with --load: the graph to load into (default: the dump\'s dataset IRI + "/graph")')
    .option('--replace', 'with --load: empty the graph first');
  addConnectionOptions(exportCmd).action(async (opts: ConnectionOptions & {
    query: string; format?: string; output?: string; maxRecords?: number; concurrency: number; pageSize: number; state?: string; resume?: boolean;
    splitBy?: SplitUnit; maxStart: number; meta?: string; license?: string; rejects?: string; graph?: string; graphPerRecord?: boolean; base?: string; quiet?: boolean; validate?: boolean;
    load?: string; store: string; loadGraph?: string; replace?: boolean;
  }) => {
    if (opts.load && !opts.output) throw new ToolkitError('--load needs the dump in a file (-o FILE): the load is resumable from it', 'usage');
    if (!opts.load && (opts.loadGraph || opts.replace)) throw new ToolkitError(`${opts.loadGraph ? '--load-graph' : '--replace'} goes with --load URL (the store to load the dump into)`, 'usage');
    if (opts.load && opts.graphPerRecord) {
      throw new ToolkitError('--graph-per-record and --load do not go together: load puts every quad into one graph, which would merge the record graphs; load the file with a tool that keeps named graphs', 'usage');
    }
    let key: string | undefined;
    await keySafe(() => [key, opts.apiKey, ctx.io.env['SCHOLARLY_API_KEY']], async () => {
      const format = opts.format ? parseFormatName(opts.format) : undefined;
      if (opts.resume && !opts.output) throw new ToolkitError('--resume needs the output file of the export (-o FILE)', 'usage');
      const reporter = opts.quiet ? undefined : new ExportReporter({ write: (t) => ctx.io.stderr.write(t), tty: ctx.io.stderrIsTTY, columns: (ctx.io.stderr as { columns?: number }).columns ?? 80 });
      let validateRecord: ExportOptions['validateRecord'];
      if (opts.validate) {
        const shacl = await import('../../shacl/createRecordValidator.js');
        const validator = await shacl.createRecordValidator();
        validateRecord = async (quads) => shacl.violationsToJson(await validator.validateRecord(quads));
      }
      const connection = await connect(opts, ctx);
      key = connection.key;
      try {
        const output = abs(ctx, opts.output);
        const summary = await exportRdf({
          query: opts.query,
          client: connection.client,
          ...(format ? { format } : {}),
          ...(output ? { output } : { stream: ctx.io.stdout }),
          ...(opts.maxRecords ? { maxRecords: opts.maxRecords } : {}),
          concurrency: opts.concurrency,
          pageSize: opts.pageSize,
          maxStart: opts.maxStart,
          ...(opts.state ? { statePath: abs(ctx, opts.state) } : {}),
          resume: Boolean(opts.resume),
          ...(opts.splitBy ? { splitBy: opts.splitBy } : {}),
          ...(opts.meta ? { metaPath: abs(ctx, opts.meta) } : {}),
          ...(opts.rejects ? { rejectsPath: abs(ctx, opts.rejects) } : {}),
          ...(opts.graph ? { graph: opts.graph } : {}),
          ...(opts.graphPerRecord ? { graphPerRecord: true } : {}),
          ...(opts.license !== undefined ? { license: opts.license } : {}),
          ...(opts.base ? { base: opts.base } : {}),
          ...(validateRecord ? { validateRecord } : {}),
          signal: ctx.signal,
          onWarning: (w) => reporter?.warn(connection.client.redact(w)),
          onProgress: (p) => reporter?.progress(p),
        });
        reporter?.summary(summary, opts.output ?? 'stdout');
        if (summary.counts.rejects > 0) {
          const why = opts.validate ? 'could not be mapped or did not conform to the shapes' : 'could not be mapped';
          ctx.log(`scholarly-rdf: ${summary.counts.rejects} record(s) ${why}${opts.rejects ? `; see ${opts.rejects}` : '; add --rejects FILE to keep them'}`);
          ctx.setExitCode(1);
        }
        const harvested = summary.counts.records + summary.counts.rejects;
        if (summary.total !== null && !opts.maxRecords && harvested < summary.total) {
          // Pages that came back short or empty: the dump lacks records the service said it has.
          ctx.log(
            `scholarly-rdf: the service reported ${summary.total} record(s) for the query but ${harvested} were harvested (${summary.total - harvested} fewer): ` +
              'some pages came back short or empty; run the export again (without --resume) to get them',
          );
          ctx.setExitCode(1);
        }
        if (opts.load && output) {
          // The same code path as `scholarly-rdf load FILE --endpoint URL` (resumable by its load log).
          await program.parseAsync(
            ['load', output, '--endpoint', opts.load, '--store', opts.store, ...(opts.loadGraph ? ['--graph', opts.loadGraph] : []), ...(opts.replace ? ['--replace'] : [])],
            { from: 'user' },
          );
        }
      } finally {
        await connection.close();
      }
    });
  });

  const searchCmd = program
    .command('search')
    .description('show one page of a query: title, DOI and date of each record, the total and the facets')
    .requiredOption('-q, --query <query>', 'the service query')
    .option('-s, --start <n>', 'first record (1-based)', int('--start', 1), 1)
    .option('-p, --page-size <n>', 'records on the page', int('--page-size', 1, MAX_PAGE_SIZE), 10)
    .option('--json', 'print the page as the service sent it (the key removed)');
  addConnectionOptions(searchCmd).action(async (opts: ConnectionOptions & { query: string; start: number; pageSize: number; json?: boolean }) => {
    let key: string | undefined;
    await keySafe(() => [key, opts.apiKey, ctx.io.env['SCHOLARLY_API_KEY']], async () => {
      const connection = await connect(opts, ctx);
      key = connection.key;
      try {
        const page = await connection.client.fetchPage({ q: opts.query, s: opts.start, p: opts.pageSize }, ctx.signal);
        if (opts.json) {
          ctx.io.stdout.write(`${connection.client.redact(JSON.stringify(page.envelope, null, 2))}\n`);
          return;
        }
        ctx.io.stdout.write(connection.client.redact(formatSearchPage(page)));
      } finally {
        await connection.close();
      }
    });
  });

  const getCmd = program
    .command('get')
    .description("print one record's RDF, looked up by DOI")
    .argument('<doi>', 'the DOI, e.g. 10.1007/s11306-017-1242-7')
    .option('-f, --format <format>', 'turtle, ntriples, nquads, jsonld or rdfxml', 'turtle')
    .option('--base <iri>', 'base of the IRIs minted for nodes the record owns');
  addConnectionOptions(getCmd).action(async (doi: string, opts: ConnectionOptions & { format: string; base?: string }) => {
    let key: string | undefined;
    await keySafe(() => [key, opts.apiKey, ctx.io.env['SCHOLARLY_API_KEY']], async () => {
      const format = parseFormatName(opts.format);
      const connection = await connect(opts, ctx);
      key = connection.key;
      try {
        const bare = doi.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, '');
        const { record } = await connection.client.getRecord(bare, ctx.signal);
        if (!record) throw new ToolkitError(`the service has no record with DOI ${bare}`, 'not-found');
        const mapped = mapRecord(normalizeRecord(record), opts.base ? { base: opts.base } : {});
        const writer = serializerFor(format).createWriter();
        ctx.io.stdout.write(writer.start() + writer.write(mapped.quads) + writer.end());
      } finally {
        await connection.close();
      }
    });
  });
}

/** The readable form of a search page: a table of title, DOI and date, then the total and the facets. */
export function formatSearchPage(page: import('../../client/ApiClient.js').SearchPage): string {
  const rows = page.records.map((r) => {
    const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
    return { title: str('title').replace(/\s+/g, ' ').trim(), doi: str('doi') || str('identifier').replace(/^doi:/, ''), date: str('onlineDate') || str('publicationDate') };
  });
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const titleWidth = Math.min(60, Math.max(5, ...rows.map((r) => r.title.length)));
  const doiWidth = Math.max(3, ...rows.map((r) => r.doi.length));
  const line = (a: string, b: string, c: string) => `${clip(a, titleWidth).padEnd(titleWidth)}  ${b.padEnd(doiWidth)}  ${c}`.trimEnd();
  const out: string[] = [];
  if (rows.length > 0) {
    out.push(line('TITLE', 'DOI', 'DATE'));
    for (const r of rows) out.push(line(r.title, r.doi, r.date));
    out.push('');
  }
  const total = page.total ?? 0;
  out.push(
    rows.length > 0
      ? `records ${page.start}-${page.start + rows.length - 1} of ${total.toLocaleString('en-US')}`
      : `no records from ${page.start} (the service reports total ${page.total ?? 'unknown'})`,
  );
  for (const facet of page.facets) {
    if (!facet.values?.length) continue;
    const values = facet.values.slice(0, 8).map((v) => `${v.value} (${v.count})`).join(', ');
    out.push(`${facet.name}: ${values}${facet.values.length > 8 ? ', …' : ''}`);
  }
  return `${out.join('\n')}\n`;
}
