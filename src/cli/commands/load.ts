import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { Option, type Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { positiveInteger, timeoutSeconds } from '../optionValues.js';
import { ToolkitError, hideUrlSecrets } from '../../errors.js';
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
  timeout: string;
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
    .option('--timeout <seconds>', 'time limit of each HTTP request (a chunk\'s upload included), in seconds', '600')
    .action(async (files: string[], opts: LoadCliOptions) => {
      const { io } = ctx;
      const env = io.env;
      const store = parseStoreKind(opts.store);
      const chunkTriples = positiveInteger('--chunk-triples', opts.chunkTriples);
      const concurrency = positiveInteger('--concurrency', opts.concurrency);
      const timeoutMs = timeoutSeconds('--timeout', opts.timeout) * 1000;

      // Credentials: flags, else environment, else user:password@ in an endpoint URL (taken out of it). Never printed.
      let user = opts.user ?? env['SCHOLARLY_STORE_USER'];
      let password = opts.password ?? env['SCHOLARLY_STORE_PASSWORD'];
      const takeCredentials = (value: string | undefined): string | undefined => {
        const found = value === undefined ? undefined : splitCredentials(value);
        if (!found) return value;
        if (found.user !== undefined && user === undefined && password === undefined) {
          user = found.user;
          password = found.password;
        }
        return found.url;
      };
      const endpoint = takeCredentials(opts.endpoint)!;
      const queryEndpoint = takeCredentials(opts.queryEndpoint);
      const updateEndpoint = takeCredentials(opts.updateEndpoint);
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
            // What a JSON-LD processor would drop is an error: a load that leaves data out must not look complete.
            strict: true,
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
        queryEndpoint,
        updateEndpoint,
        statePath,
        resume: Boolean(opts.resume),
        inputs,
        checkCount: opts.check,
        timeoutMs,
        signal: ctx.signal,
        onRetry: (e) => ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${e.reason}`),
        onChunk: (e) => {
          if (Date.now() - lastProgress >= 5000) {
            lastProgress = Date.now();
            ctx.log(`chunk ${e.chunk} acknowledged, ${e.totalTriples} triples loaded`);
          }
        },
      });
      // Whether this run wrote the load log (an old one left by another load is no place to resume from).
      const logBefore = statePath ? modifiedAt(statePath) : undefined;
      if (opts.resume && statePath && !existsSync(statePath)) ctx.log(`no load log at ${statePath}: nothing to resume, loading from the start`);
      let summary: LoadSummary;
      try {
        summary = await loader.load(quads());
      } catch (err) {
        if (err instanceof ToolkitError && err.code === 'count-mismatch' && err.details['summary']) {
          printSummary(ctx, err.details['summary'] as LoadSummary, statePath, opts.check);
        } else if (err instanceof ToolkitError && statePath && (err.code === 'network' || err.code === 'http-status' || err.code === 'aborted')) {
          ctx.log(
            modifiedAt(statePath) !== logBefore
              ? `the load stopped; acknowledged chunks are in ${statePath}: run again with --resume to continue`
              : 'the load stopped before it began (no chunk was sent): run it again as it was',
          );
        }
        throw err;
      }
      printSummary(ctx, summary, statePath, opts.check);
    });
}

function printSummary(ctx: CliContext, s: LoadSummary, statePath: string | undefined, check: boolean): void {
  const seconds = (s.durationMs / 1000).toFixed(1);
  ctx.log(`graph:     <${s.graph}> at ${hideUrlSecrets(s.graphStore)}${s.replaced ? ' (replaced)' : ''}`);
  ctx.log(
    `loaded:    ${s.triples} triples in ${s.chunks} chunks, ${seconds} s, ${s.triplesPerSecond} triples/s` +
      (s.chunksSkipped > 0 ? ` (resumed: ${s.chunksSkipped} chunks acknowledged before, ${s.totalTriples} triples in all)` : ''),
  );
  if (s.count !== undefined) {
    const range = s.minimumCount !== s.expectedCount;
    const expected = range ? `${s.minimumCount} to ${s.expectedCount}` : `${s.expectedCount}`;
    const ok = s.count >= s.minimumCount && s.count <= s.expectedCount;
    const why = range ? '; the triples of shared entities (journals, publishers, persons), repeated by the records that name them, are held once' : '';
    ctx.log(`count:     ${s.count} triples in the graph, ${expected} expected${ok ? ' (ok)' : ' (MISMATCH)'}${why}`);
  } else {
    ctx.log(check ? 'count:     not checked (no SPARQL query endpoint: pass --query-endpoint)' : 'count:     not checked (--no-check)');
  }
  if (s.blankNodeTriples > 0) {
    ctx.log(`warning:   ${s.blankNodeTriples} triples have blank nodes; a blank node that spans two chunks becomes two nodes in the store (use a larger --chunk-triples or skolemised data)`);
  }
  if (s.namedGraphQuads > 0) ctx.log(`note:      ${s.namedGraphQuads} quads of named graphs were loaded into <${s.graph}>`);
  if (statePath) ctx.log(`load log:  ${statePath}`);
}

/** When a file was last written (ms), or undefined when there is none. */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** A URL without its `user:password@`, and what was there; undefined when it is no URL or has none. */
function splitCredentials(value: string): { url: string; user: string | undefined; password: string } | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined; // not a URL: the loader says so, without the part before @
  }
  if (!url.username && !url.password) return undefined;
  const user = url.username ? decodeOrKeep(url.username) : undefined;
  const password = decodeOrKeep(url.password);
  url.username = '';
  url.password = '';
  return { url: url.toString(), user, password };
}

/** A percent-decoded user or password of a URL; as written when it is no valid escape (`S3cret%PW`). */
function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
