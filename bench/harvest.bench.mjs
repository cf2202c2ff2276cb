// Harvest benchmark: `export` against the local service adding a fixed latency to every page (default
// 100 ms, 200 pages of 100 records, a query deep enough to be split into date windows), at fixed
// concurrencies and with the default (adaptive) one, in turn in one run.
// Reports each as a ratio to the ideal pages x latency / concurrency, and the default as a ratio to the
// best fixed concurrency measured in the same run; checks that every dump is byte-identical.
// Then, against a service that allows `--serve-rate` requests per second per key (`serve --rate`;
// default 5, the premium plan's 300 a minute; e.g. 5,10,20), counts the 429s and the wall time of each
// fixed concurrency and of the default, with `--rest` ms between exports so that the service's token
// bucket (a second's worth) is full again at the start of each.
// Targets: default <= 1.15x the best fixed concurrency's wall time; default's 429s <= concurrency 2's.
// Usage: npm run bench -- harvest
//        node bench/harvest.bench.mjs [--records 20000] [--page-size 100] [--latency 100] [--concurrency 1,2,4,8]
//                                     [--runs 1] [--serve-rate 5[,10,...]] [--rate-records 5000] [--rest 2000]
//                                     [--dist DIR] [--only latency|rate]
// Runs against dist/ (npm run build), or DIR; medians of --runs runs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const DIST = resolve(arg('dist', join(ROOT, 'dist')));
const dist = (p) => pathToFileURL(join(DIST, p)).href;
const records = Number(arg('records', '20000'));
const pageSize = Number(arg('page-size', '100'));
const latencyMs = Number(arg('latency', '100'));
const levels = arg('concurrency', '1,2,4,8').split(',').map(Number);
const runs = Number(arg('runs', '1'));
// 5 requests a second: the premium plan's 300 a minute (docs/querying.md)
const serveRates = arg('serve-rate', '5')
  .split(',')
  .map(Number)
  .filter((r) => r > 0);
const only = arg('only', 'all'); // latency, rate or all
const rateRecords = Number(arg('rate-records', '5000'));
const restMs = Number(arg('rest', '2000'));
const QUERY = 'onlinedatefrom:1900-01-01';
const KEY = 'bench-key';

const { exportRdf } = await import(dist('export/exportRdf.js'));
const { ConcurrencyController } = await import(dist('client/ConcurrencyController.js')).catch(() => ({}));

/** The local service in its own process (as a remote service would be), so its CPU does not share the harvester's event loop. */
async function startService(n, rate) {
  const script = `
    const { generateRecords } = await import(${JSON.stringify(dist('sample/generateRecords.js'))});
    const { Catalogue } = await import(${JSON.stringify(dist('server/Catalogue.js'))});
    const { startServer } = await import(${JSON.stringify(dist('server/startServer.js'))});
    const catalogue = Catalogue.fromRecords(generateRecords(${n}, 1, { catalogueFields: true }));
    const server = await startServer({ catalogue, apiKeys: [{ key: '${KEY}', plan: 'premium' }], rate: ${rate}, faults: { latencyMs: ${latencyMs} } });
    process.stdout.write(server.url + '\\n');
    process.stdin.on('end', () => server.close(100).then(() => process.exit(0)));
    process.stdin.resume();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise((resolveUrl, reject) => {
    let text = '';
    child.stdout.on('data', (c) => {
      text += c;
      if (text.includes('\n')) resolveUrl(text.trim());
    });
    child.on('exit', (code) => reject(new Error(`the local service exited with ${code}`)));
  });
  return {
    url,
    close: async () => {
      child.stdin.end();
      await new Promise((r) => child.on('exit', r));
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'harvest-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const label = (c) => (c === undefined ? 'default' : `concurrency ${c}`);

/** One export: wall time, 429s counted at the fetch, the controller's peak, the dump's hash. */
async function runExport(url, concurrency, name) {
  let tooMany = 0;
  const fetch = async (...a) => {
    const response = await globalThis.fetch(...a);
    if (response.status === 429) tooMany++;
    return response;
  };
  const controller = concurrency === undefined && ConcurrencyController ? new ConcurrencyController() : undefined;
  const output = join(dir, `${name}.nt`);
  const t0 = performance.now();
  const summary = await exportRdf({
    query: QUERY,
    baseUrl: url,
    apiKey: KEY,
    output,
    pageSize,
    fetch,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(controller ? { controller } : {}),
  });
  const ms = performance.now() - t0;
  const hash = createHash('sha256').update(readFileSync(output)).digest('hex');
  rmSync(output, { force: true });
  rmSync(`${output}.state.json`, { force: true });
  return { ms, tooMany, peak: controller?.peak, limit: controller?.limit, records: summary.counts.records, hash };
}

/** Wall times at a fixed latency, fixed concurrencies and the default in turn; false when the target is missed. */
async function latencyPart(hashes) {
  const service = await startService(records, 0);
  const pages = Math.ceil(records / pageSize);
  console.log(
    `local service: ${records} records, page size ${pageSize} (${pages} pages), ${latencyMs} ms latency per page; query '${QUERY}'; output N-Triples; ${runs} run(s), medians`,
  );
  const times = new Map();
  const peaks = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const c of [...levels, undefined]) {
        const r = await runExport(service.url, c, `${label(c)}-${run}`.replace(' ', ''));
        hashes.add(r.hash);
        if (!times.has(c)) times.set(c, []);
        times.get(c).push(r.ms);
        if (r.peak !== undefined) peaks.push(r.peak);
      }
    }
  } finally {
    await service.close();
  }
  const ideal = (c) => (pages * latencyMs) / c;
  let best;
  for (const c of levels) {
    const ms = median(times.get(c));
    if (!best || ms < best.ms) best = { c, ms };
    console.log(
      `${label(c)}: ${(ms / 1000).toFixed(2)} s = ${(ms / ideal(c)).toFixed(2)}x ideal (${(ideal(c) / 1000).toFixed(2)} s)`,
    );
  }
  const def = median(times.get(undefined));
  const peak = peaks.length ? median(peaks) : undefined;
  const vsPeak = peak
    ? ` = ${(def / ideal(peak)).toFixed(2)}x ideal at its peak concurrency ${peak} (peaks: ${peaks.join(', ')})`
    : '';
  console.log(
    `default: ${(def / 1000).toFixed(2)} s${vsPeak}; ${(def / ideal(best.c)).toFixed(2)}x ideal at concurrency ${best.c}`,
  );
  const ratio = def / best.ms;
  console.log(
    `target default <= 1.15x best fixed (concurrency ${best.c}): ${ratio <= 1.15 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`,
  );
  return ratio <= 1.15;
}

/** 429s and wall times against a service allowing `rate` requests per second, each fixed concurrency and the default in turn; false when the target is missed. */
async function ratePart(rate) {
  const limited = await startService(rateRecords, rate);
  const modes = [...new Set([...levels, 2]), undefined];
  const counts = new Map(modes.map((c) => [c, []]));
  const walls = new Map(modes.map((c) => [c, []]));
  const hashes = new Set();
  const peaks = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const c of modes) {
        await new Promise((r) => setTimeout(r, restMs)); // the service's bucket fills again
        const r = await runExport(limited.url, c, `rate-${label(c)}-${run}`.replace(' ', ''));
        counts.get(c).push(r.tooMany);
        walls.get(c).push(r.ms);
        hashes.add(r.hash);
        if (r.peak !== undefined) peaks.push(`${r.peak}/${r.limit}`);
      }
    }
  } finally {
    await limited.close();
  }
  console.log(
    `service limited to ${rate} requests/s (Retry-After 1 s), ${rateRecords} records (${Math.ceil(rateRecords / pageSize)} pages), ${latencyMs} ms latency, ${restMs} ms rest between exports:`,
  );
  for (const c of modes) {
    const limits = c === undefined && peaks.length ? `; peak/final concurrency ${peaks.join(', ')}` : '';
    console.log(
      `  ${label(c)}: ${median(counts.get(c))} 429s (runs: ${counts.get(c).join(', ')}) in ${(median(walls.get(c)) / 1000).toFixed(2)} s (runs: ${walls
        .get(c)
        .map((ms) => (ms / 1000).toFixed(2))
        .join(', ')})${limits}`,
    );
  }
  const ok = median(counts.get(undefined)) <= median(counts.get(2)) && hashes.size === 1;
  console.log(
    `target default's 429s <= concurrency 2's: ${ok ? 'met' : 'NOT met'}${hashes.size === 1 ? '' : '; DUMPS DIFFER'}`,
  );
  return ok;
}

let failed = false;
try {
  if (only !== 'rate') {
    const hashes = new Set();
    if (!(await latencyPart(hashes))) failed = true;
    console.log(
      `dumps byte-identical across concurrencies: ${hashes.size === 1 ? 'yes' : `NO (${hashes.size} different)`}`,
    );
    if (hashes.size !== 1) failed = true;
  }
  if (only !== 'latency') for (const rate of serveRates) if (!(await ratePart(rate))) failed = true;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
