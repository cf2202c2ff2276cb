import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { Option, type Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { positiveInteger } from '../optionValues.js';
import { ToolkitError } from '../../errors.js';
import { openRdfFile } from '../../parse/openRdfFile.js';
import { parseRdf } from '../../parse/parseRdf.js';
import { graphOfFileName } from '../../store/defaultGraph.js';
import { GraphStoreLoader, type LoadSummary } from '../../store/GraphStoreLoader.js';
import type { LoadInput } from '../../store/LoadLog.js';
import { STORE_KINDS, parseStoreKind } from '../../store/storeEndpoints.js';
import type { StoreCredentials } from '../../store/StoreHttpClient.js';

interface LoadCliOptions {
  endpoint: string;
  graph?: string;
  replace?: boolean;
  chunkTriples: string;
  chunkFormat: 'ntriples' | 'turtle';
  concurrency: string;
  user?: string;
  password?: string;
  store: string;
  queryEndpoint?: string;
  updateEndpoint?: string;
  state?: string;
  resume?: boolean;
  check: boolean;
}

/** `scholarly-rdf load FILE... --endpoint URL`: streams dumps into a triple store over the Graph Store Protocol. */
export function registerLoad(program: Command, ctx: CliContext): void {
  program
    .command('load')
    .description('load RDF dumps (any of the five formats, .gz too) into a named graph of a triple store over the SPARQL Graph Store Protocol, in chunks, resumably, checking the count at the end')
    .argument('<file...>', 'RDF files (.ttl .nt .nq .jsonld .rdf, optionally .gz), or - for stdin')
    .requiredOption('--endpoint <url>', 'the store: Fuseki dataset URL, Virtuoso server URL, RDF4J repository URL, or (generic) the Graph Store URL')
    .addOption(new Option('--store <kind>', 'URL conventions of the store').choices([...STORE_KINDS, 'graphdb']).default('fuseki'))
    .option('--graph <iri>', 'the graph to load into (default: the dump\'s void:/dcat:Dataset IRI + "/graph", else https://w3id.org/scholarly-rdf/graph/<file name>)')
    .option('--replace', 'empty the graph first (DROP SILENT GRAPH)')
    .option('--chunk-triples <n>', 'triples per request', '50000')
    .addOption(new Option('--chunk-format <format>', 'syntax of the chunks sent').choices(['ntriples', 'turtle']).default('ntriples'))
    .option('--concurrency <n>', 'requests in flight at once', '1')
    .option('--user <name>', 'user name (Basic or Digest, as the store asks); default $SCHOLARLY_STORE_USER')
    .option('--password <password>', 'password; prefer $SCHOLARLY_STORE_PASSWORD (a flag shows in the process list)')
    .option('--query-endpoint <url>', 'SPARQL Query endpoint, instead of the store\'s convention (generic stores need it for the count)')
    .option('--update-endpoint <url>', 'SPARQL Update endpoint, instead of the store\'s convention')
    .option('--state <file>', 'the load log recording acknowledged chunks (default: <first file name>.load-state.json in the current directory)')
    .option('--resume', 'continue the load recorded in the load log after its last acknowledged chunk')
    .option('--no-check', 'do not check the graph\'s triple count at the end')
    .action(async (files: string[], opts: LoadCliOptions) => {
      const { io } = ctx;
      const env = io.env;
      const store = parseStoreKind(opts.store);
      const chunkTriples = positiveInteger('--chunk-triples', opts.chunkTriples);
      const concurrency = positiveInteger('--concurrency', opts.concurrency);

      // Credentials: flags, else environment, else user:password@ in the endpoint URL. Never printed.
      let endpoint = opts.endpoint;
      let user = opts.user ?? env['SCHOLARLY_STORE_USER'];
      let password = opts.password ?? env['SCHOLARLY_STORE_PASSWORD'];
      try {
        const url = new URL(endpoint);
        if (url.username) {
          user ??= decodeOrKeep(url.username);
          password ??= decodeOrKeep(url.password);
          url.username = '';
          url.password = '';
          endpoint = url.toString();
        }
      } catch {
        // not a URL: the loader says so
      }
      if ((user === undefined) !== (password === undefined)) {
        throw new ToolkitError('give both a user and a password (--user/--password or SCHOLARLY_STORE_USER/SCHOLARLY_STORE_PASSWORD)', 'usage');
      }
      const credentials: StoreCredentials | undefined = user !== undefined ? { user, password: password! } : undefined;

      const paths = files.map((f) => (f === '-' || isAbsolute(f) ? f : resolve(io.cwd, f)));
      if (paths.filter((p) => p === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
      const inputs: LoadInput[] = [];
      for (const [i, path] of paths.entries()) {
        if (path === '-') {
          inputs.push({ path: '-' });
          continue;
        }
        try {
          const info = await stat(path);
          inputs.push({ path: files[i]!, size: info.size, mtimeMs: Math.round(info.mtimeMs) });
        } catch (err) {
          throw new ToolkitError(`cannot open ${files[i]}: no such file`, 'io', { cause: err });
        }
      }
      const statePath =
        opts.state !== undefined
          ? resolve(io.cwd, opts.state)
          : paths[0] !== '-'
            ? resolve(io.cwd, `${basename(paths[0]!)}.load-state.json`)
            : undefined;
      if (opts.resume && !statePath) throw new ToolkitError('--resume of stdin needs --state FILE', 'usage');

      async function* quads(): AsyncGenerator<RDF.Quad> {
        for (const path of paths) {
          const file = await openRdfFile(path, io.stdin);
          yield* parseRdf(file.input, {
            format: file.format,
            source: path === '-' ? file.source : files[paths.indexOf(path)]!,
            signal: ctx.signal,
            // Every quad goes into the one target graph: JSON-LD dumps stream.
            ignoreGraphs: true,
          });
        }
      }

      let lastProgress = Date.now();
      const loader = new GraphStoreLoader({
        endpoint,
        store,
        graph: opts.graph,
        fallbackGraph: graphOfFileName(files[0]!),
        replace: Boolean(opts.replace),
        chunkTriples,
        chunkFormat: opts.chunkFormat,
        concurrency,
        credentials,
        queryEndpoint: opts.queryEndpoint,
        updateEndpoint: opts.updateEndpoint,
        statePath,
        resume: Boolean(opts.resume),
        inputs,
        checkCount: opts.check,
        signal: ctx.signal,
        onRetry: (e) => ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${e.reason}`),
        onChunk: (e) => {
          if (Date.now() - lastProgress >= 5000) {
            lastProgress = Date.now();
            ctx.log(`chunk ${e.chunk} acknowledged, ${e.totalTriples} triples loaded`);
          }
        },
      });
      if (opts.resume && statePath && !existsSync(statePath)) ctx.log(`no load log at ${statePath}: nothing to resume, loading from the start`);
      let summary: LoadSummary;
      try {
        summary = await loader.load(quads());
      } catch (err) {
        if (err instanceof ToolkitError && err.code === 'count-mismatch' && err.details['summary']) {
          printSummary(ctx, err.details['summary'] as LoadSummary, statePath);
        } else if (err instanceof ToolkitError && statePath && (err.code === 'network' || err.code === 'http-status' || err.code === 'aborted')) {
          ctx.log(
            existsSync(statePath)
              ? `the load stopped; acknowledged chunks are in ${statePath}: run again with --resume to continue`
              : 'the load stopped before it began (no chunk was sent): run it again as it was',
          );
        }
        throw err;
      }
      printSummary(ctx, summary, statePath);
    });
}

function printSummary(ctx: CliContext, s: LoadSummary, statePath: string | undefined): void {
  const seconds = (s.durationMs / 1000).toFixed(1);
  ctx.log(`graph:     <${s.graph}> at ${s.graphStore}${s.replaced ? ' (replaced)' : ''}`);
  ctx.log(
    `loaded:    ${s.triples} triples in ${s.chunks} chunks, ${seconds} s, ${s.triplesPerSecond} triples/s` +
      (s.chunksSkipped > 0 ? ` (resumed: ${s.chunksSkipped} chunks acknowledged before, ${s.totalTriples} triples in all)` : ''),
  );
  if (s.count !== undefined) {
    ctx.log(`count:     ${s.count} triples in the graph, ${s.expectedCount} expected${s.count === s.expectedCount ? ' (ok)' : ' (MISMATCH)'}`);
  } else {
    ctx.log('count:     not checked (no SPARQL query endpoint: pass --query-endpoint)');
  }
  if (s.blankNodeTriples > 0) {
    ctx.log(`warning:   ${s.blankNodeTriples} triples have blank nodes; a blank node that spans two chunks becomes two nodes in the store (use a larger --chunk-triples or skolemised data)`);
  }
  if (s.namedGraphQuads > 0) ctx.log(`note:      ${s.namedGraphQuads} quads of named graphs were loaded into <${s.graph}>`);
  if (statePath) ctx.log(`load log:  ${statePath}`);
}

/** A percent-decoded user or password of a URL; as written when it is no valid escape (`S3cret%PW`). */
function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
