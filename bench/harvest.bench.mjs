// Harvest benchmark: export throughput with --concurrency 4 against --concurrency 1, the local
// service adding 100 ms of latency to every page. Target: concurrency 4 at least 3x faster.
// Usage: npm run bench -- harvest
//        node bench/harvest.bench.mjs [--records 2000] [--page-size 25] [--latency 100] [--concurrency 1,2,4]
// Runs against dist/ (npm run build); one run of each, in the same process, ratios reported.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => pathToFileURL(join(ROOT, 'dist', p)).href;

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const records = Number(arg('records', '2000'));
const pageSize = Number(arg('page-size', '25')); // the export's default (a basic key's maximum)
const latencyMs = Number(arg('latency', '100'));
const levels = arg('concurrency', '1,2,4').split(',').map(Number);

const { exportRdf } = await import(dist('export/exportRdf.js'));

const KEY = 'bench-key';
// The local service runs in its own process (as a remote service would), so its CPU does not
// share the harvester's event loop.
const serverScript = `
  const { generateRecords } = await import(${JSON.stringify(dist('sample/generateRecords.js'))});
  const { Catalogue } = await import(${JSON.stringify(dist('server/Catalogue.js'))});
  const { startServer } = await import(${JSON.stringify(dist('server/startServer.js'))});
  const catalogue = Catalogue.fromRecords(generateRecords(${records}, 1, { catalogueFields: true }));
  const server = await startServer({ catalogue, apiKeys: [{ key: '${KEY}', plan: 'premium' }], faults: { latencyMs: ${latencyMs} } });
  process.stdout.write(server.url + '\\n');
  process.stdin.on('end', () => server.close(100).then(() => process.exit(0)));
  process.stdin.resume();
`;
const child = spawn(process.execPath, ['--input-type=module', '-e', serverScript], { stdio: ['pipe', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (c) => {
    text += c;
    if (text.includes('\n')) resolve(text.trim());
  });
  child.on('exit', (code) => reject(new Error(`the local service exited with ${code}`)));
});
const server = { url, close: async () => { child.stdin.end(); await new Promise((r) => child.on('exit', r)); } };
const dir = mkdtempSync(join(tmpdir(), 'harvest-bench-'));
const pages = Math.ceil(records / pageSize);
console.log(`local service: ${records} records, page size ${pageSize} (${pages} pages), ${latencyMs} ms latency per page; output N-Triples`);

const results = [];
try {
  for (const concurrency of levels) {
    const output = join(dir, `c${concurrency}.nt`);
    const t0 = performance.now();
    const summary = await exportRdf({
      query: 'onlinedatefrom:1900-01-01',
      baseUrl: server.url,
      apiKey: KEY,
      output,
      pageSize,
      concurrency,
    });
    const ms = performance.now() - t0;
    const rate = (summary.counts.records / ms) * 1000;
    results.push({ concurrency, ms, rate });
    console.log(
      `concurrency ${concurrency}: ${summary.counts.records} records, ${summary.counts.pages} pages in ${(ms / 1000).toFixed(2)} s = ${rate.toFixed(0)} records/s (${statSync(output).size} bytes)`,
    );
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

const base = results.find((r) => r.concurrency === 1);
if (base) {
  for (const r of results) if (r !== base) console.log(`speed-up concurrency ${r.concurrency} vs 1: ${(base.ms / r.ms).toFixed(2)}x`);
  const c4 = results.find((r) => r.concurrency === 4);
  if (c4) {
    const ratio = base.ms / c4.ms;
    console.log(`target concurrency 4 >= 3x concurrency 1: ${ratio >= 3 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`);
    process.exitCode = ratio >= 3 ? 0 : 1;
  }
}
