import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { addCommandOptions } from '../options/optionTable.js';
import { ToolkitError } from '../../errors.js';
import { sampleCataloguePath } from '../../sample/sampleCatalogue.js';
import { SAMPLE_API_KEY, type FaultOptions, type ServiceCompat } from '../../server/ServeOptions.js';

interface ServeCliOptions {
  catalogue?: string;
  port: number;
  host: string;
  apiKey?: string[];
  keysFile?: string;
  rate: number;
  retryAfter: number;
  vocabDir?: string;
  vocabPath: string;
  seed: number;
  latency?: number;
  failRate?: number;
  throttleRate?: number;
  truncateRate?: number;
  resetRate?: number;
  json?: boolean;
  compat: ServiceCompat;
}

/** The faults to inject, from the options. */
function faultOptions(opts: ServeCliOptions): FaultOptions {
  const faults: FaultOptions = { seed: opts.seed };
  if (opts.latency !== undefined) faults.latencyMs = opts.latency;
  for (const key of ['failRate', 'throttleRate', 'truncateRate', 'resetRate'] as const) {
    if (opts[key] !== undefined) faults[key] = opts[key];
  }
  return faults;
}

/** `scholarly-rdf serve`: the local copy of the metadata service. */
export function registerServe(program: Command, ctx: CliContext): void {
  const command = program
    .command('serve')
    .description('Run the metadata service locally over a catalogue of records (the bundled sample by default)');
  addCommandOptions(command, 'serve', (line) => ctx.log(line)).action(async (opts: ServeCliOptions) => {
    if (opts.json) ctx.json.enable('serve', 'stdout');
    const { port, rate, retryAfter } = opts;
    const faults = faultOptions(opts);
    const vocabPath = opts.vocabPath.startsWith('/') ? opts.vocabPath : `/${opts.vocabPath}`;

    const file = opts.catalogue ? resolve(ctx.io.cwd, opts.catalogue) : sampleCataloguePath();
    const started = performance.now();
    const catalogue = await (await import('../../server/loadCatalogueInParallel.js')).loadCatalogueInParallel(file);
    ctx.log(`loaded ${catalogue.size} records from ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    let running;
    try {
      running = await (
        await import('../../server/startServer.js')
      ).startServer({
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
        compat: opts.compat,
      });
    } catch (err) {
      if (err instanceof ToolkitError) throw err;
      throw new ToolkitError(`cannot listen on ${opts.host}:${port}: ${(err as Error).message}`, 'io', { cause: err });
    }
    const keyless = !opts.apiKey?.length && !opts.keysFile;
    if (keyless) ctx.log(`no keys given: accepting the key '${SAMPLE_API_KEY}' (premium)`);
    const active = Object.entries(faults).filter(([k, v]) => k !== 'seed' && v);
    if (active.length > 0)
      ctx.log(`injecting faults (seed ${faults.seed}): ${active.map(([k, v]) => `${k}=${v}`).join(', ')}`);
    if (opts.json) {
      // Printed now: the server runs until it is stopped.
      ctx.json.set({
        url: running.url,
        host: opts.host,
        port: running.port,
        records: catalogue.size,
        catalogue: file,
        vocabPath,
        sampleKey: keyless ? SAMPLE_API_KEY : null,
        compat: opts.compat,
        faults,
        pid: process.pid,
      });
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
