import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';
import { sampleCataloguePath } from '../../sample/sampleCatalogue.js';
import { SAMPLE_API_KEY, type FaultOptions } from '../../server/ServeOptions.js';

interface ServeCliOptions {
  catalogue?: string;
  port: string;
  host: string;
  apiKey?: string[];
  keysFile?: string;
  rate?: string;
  retryAfter?: string;
  vocabDir?: string;
  vocabPath: string;
  seed?: string;
  latency?: string;
  failRate?: string;
  throttleRate?: string;
  truncateRate?: string;
  resetRate?: string;
  json?: boolean;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function number(name: string, text: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new ToolkitError(`--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got '${text}'`, 'usage');
  }
  return n;
}

/** The faults to inject, from the options. */
function faultOptions(opts: ServeCliOptions): FaultOptions {
  const faults: FaultOptions = { seed: number('seed', opts.seed, 0, 2 ** 32 - 1, true) ?? 1 };
  const latency = number('latency', opts.latency, 0, 600_000);
  if (latency !== undefined) faults.latencyMs = latency;
  const rates: [keyof FaultOptions, string, string | undefined][] = [
    ['failRate', 'fail-rate', opts.failRate],
    ['throttleRate', 'throttle-rate', opts.throttleRate],
    ['truncateRate', 'truncate-rate', opts.truncateRate],
    ['resetRate', 'reset-rate', opts.resetRate],
  ];
  for (const [key, name, text] of rates) {
    const value = number(name, text, 0, 1);
    if (value !== undefined) faults[key] = value;
  }
  return faults;
}

/** `scholarly-rdf serve`: the local copy of the metadata service. */
export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('Run the metadata service locally over a catalogue of records (the bundled sample by default)')
    .option('--catalogue <file>', 'records to serve: NDJSON or a JSON array (default: the bundled sample, 300 records)')
    .option('--port <n>', 'port to listen on; 0 picks a free one', '8080')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--api-key <key>', "an accepted key, 'KEY' (basic: p<=25) or 'KEY:premium' (p<=100); repeatable (default: without --api-key and --keys-file, the key 'sample', premium)", collect)
    .option('--keys-file <file>', 'a file of keys, one per line (KEY or KEY:premium)')
    .option('--rate <n>', 'requests per second allowed per key (429 with Retry-After beyond); 0 = no limit', '0')
    .option('--retry-after <s>', 'Retry-After seconds sent with a 429', '1')
    .option('--vocab-dir <dir>', "directory of vocabulary files (<term>.jsonld/.nt/.ttl/.rdf) (default: the package's vocab/)")
    .option('--vocab-path <path>', 'path under which vocabulary terms are served', '/vocab')
    .option('--seed <n>', 'seed of the injected faults', '1')
    .option('--latency <ms>', 'inject a delay before every answer')
    .option('--fail-rate <x>', 'inject 500/503 answers in this share of requests (0-1)')
    .option('--throttle-rate <x>', 'inject 429 answers with Retry-After in this share of requests (0-1)')
    .option('--truncate-rate <x>', 'cut this share of 200 bodies mid-JSON (0-1)')
    .option('--reset-rate <x>', 'drop the connection of this share of requests (0-1)')
    .option('--json', 'once listening, print where as one line of JSON on stdout (url, port, records, ...) instead of the bare URL')
    .action(async (opts: ServeCliOptions) => {
      if (opts.json) ctx.json.enable('serve', 'stdout');
      const port = number('port', opts.port, 0, 65535, true)!;
      const faults = faultOptions(opts);
      const rate = number('rate', opts.rate, 0, 1e6) ?? 0;
      const retryAfter = number('retry-after', opts.retryAfter, 0, 86_400, true) ?? 1;
      const vocabPath = opts.vocabPath.startsWith('/') ? opts.vocabPath : `/${opts.vocabPath}`;

      const file = opts.catalogue ? resolve(ctx.io.cwd, opts.catalogue) : sampleCataloguePath();
      const started = performance.now();
      const catalogue = await (await import('../../server/loadCatalogueInParallel.js')).loadCatalogueInParallel(file);
      ctx.log(`loaded ${catalogue.size} records from ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      let running;
      try {
        running = await (await import('../../server/startServer.js')).startServer({
          catalogue,
          port,
          host: opts.host,
          apiKeys: opts.apiKey ?? [],
          ...(opts.keysFile ? { keysFile: resolve(ctx.io.cwd, opts.keysFile) } : {}),
          rate,
          retryAfter,
          ...(opts.vocabDir ? { vocabDir: resolve(ctx.io.cwd, opts.vocabDir) } : {}),
          vocabPath,
          faults,
        });
      } catch (err) {
        if (err instanceof ToolkitError) throw err;
        throw new ToolkitError(`cannot listen on ${opts.host}:${port}: ${(err as Error).message}`, 'io', { cause: err });
      }
      const keyless = !opts.apiKey?.length && !opts.keysFile;
      if (keyless) ctx.log(`no keys given: accepting the key '${SAMPLE_API_KEY}' (premium)`);
      const active = Object.entries(faults).filter(([k, v]) => k !== 'seed' && v);
      if (active.length > 0) ctx.log(`injecting faults (seed ${faults.seed}): ${active.map(([k, v]) => `${k}=${v}`).join(', ')}`);
      if (opts.json) {
        // Printed now: the server runs until it is stopped.
        ctx.json.set({ url: running.url, host: opts.host, port: running.port, records: catalogue.size, catalogue: file, vocabPath, sampleKey: keyless ? SAMPLE_API_KEY : null, faults, pid: process.pid });
        ctx.json.print(0);
      } else {
        ctx.io.stdout.write(`${running.url}\n`);
      }
      ctx.log(`listening on ${running.url} (Ctrl-C to stop)`);
      await new Promise<void>((done) => {
        if (ctx.signal.aborted) done();
        else ctx.signal.addEventListener('abort', () => done(), { once: true });
      });
      await running.close();
      ctx.log('stopped');
    });
}
