// Benchmark of `serve` (against the built library, dist/):
//  1. generates a catalogue of N records (default 1,000,000) to a temp file with the sample generator;
//  2. loads and indexes it (time, memory);
//  3. median latency over loopback of field queries, p=100, page 1 — with the result cache off (every
//     request parses, evaluates, counts facets and renders the page) and on (paging through a result);
//  4. paging: median at s=10,000 against s=1 for the same query (ratio).
// Usage: node bench/server.bench.mjs [N]      (SR_DIST=/path/to/dist to use another build)
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import http from 'node:http';

const dist = process.env.SR_DIST
  ? pathToFileURL(process.env.SR_DIST.replace(/\/?$/, '/')).href
  : new URL('../dist/', import.meta.url).href;
const { generateRecords } = await import(`${dist}sample/generateRecords.js`);
const { loadCatalogue, loadCatalogueInParallel, startServer } = await import(`${dist}server/index.js`);

const N = Number(process.argv[2] ?? 1_000_000);
const RUNS = 21;
const dir = mkdtempSync(join(tmpdir(), 'serve-bench-'));
const file = join(dir, 'catalogue.jsonl');

function cpuSeconds(since) {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
// ms: wall time of the request; cpu: CPU time of this process (server and client) during it,
// which does not depend on how busy the rest of the machine is
function get(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    http
      .get(url, { agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ms: performance.now() - started,
            cpu: cpuSeconds(cpu) * 1000,
            status: res.statusCode,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

try {
  // 1. generate
  let cpu = process.cpuUsage();
  let t = performance.now();
  const out = createWriteStream(file);
  let batch = '';
  for (const r of generateRecords(N, 1, { catalogueFields: true })) {
    batch += JSON.stringify(r) + '\n';
    if (batch.length > 1 << 22) {
      if (!out.write(batch)) await new Promise((r) => out.once('drain', r));
      batch = '';
    }
  }
  out.end(batch);
  await new Promise((r) => out.on('finish', r));
  const genSeconds = (performance.now() - t) / 1000;
  const genCpu = cpuSeconds(cpu);
  const size = statSync(file).size;
  console.log(
    `generate ${N} records (+ JSON.stringify + write): ${genSeconds.toFixed(1)} s wall, ${genCpu.toFixed(1)} s CPU ` +
      `(${Math.round(N / genSeconds)} records/s wall, ${Math.round(N / genCpu)} records/s CPU; ${(size / 1e6).toFixed(0)} MB)`,
  );
  cpu = process.cpuUsage();
  t = performance.now();
  let count = 0;
  for (const r of generateRecords(N, 1, { catalogueFields: true })) if (r.doi) count++;
  const genOnly = (performance.now() - t) / 1000;
  console.log(
    `generate only: ${genOnly.toFixed(1)} s wall, ${cpuSeconds(cpu).toFixed(1)} s CPU (${Math.round(count / genOnly)} records/s wall)`,
  );

  // 2. load: on one thread, then on worker threads (what `serve` does)
  globalThis.gc?.();
  let rssBefore = process.memoryUsage().rss;
  cpu = process.cpuUsage();
  t = performance.now();
  let catalogue = loadCatalogue(file);
  const loadSeconds = (performance.now() - t) / 1000;
  const loadCpu = cpuSeconds(cpu);
  globalThis.gc?.();
  let mem = process.memoryUsage();
  console.log(
    `load + index ${catalogue.size} records on one thread: ${loadSeconds.toFixed(1)} s wall, ${loadCpu.toFixed(1)} s CPU; ` +
      `rss +${((mem.rss - rssBefore) / 1e6).toFixed(0)} MB, JS heap ${(mem.heapUsed / 1e6).toFixed(0)} MB, buffers and typed arrays ${(mem.arrayBuffers / 1e6).toFixed(0)} MB`,
  );
  catalogue = undefined;
  globalThis.gc?.();
  rssBefore = process.memoryUsage().rss;
  cpu = process.cpuUsage();
  t = performance.now();
  catalogue = await loadCatalogueInParallel(file, { workers: Math.min(4, os.availableParallelism()) });
  const parallelSeconds = (performance.now() - t) / 1000;
  const parallelCpu = cpuSeconds(cpu);
  globalThis.gc?.();
  mem = process.memoryUsage();
  console.log(
    `load + index ${catalogue.size} records on worker threads (${os.availableParallelism()} cores): ${parallelSeconds.toFixed(1)} s wall, ${parallelCpu.toFixed(1)} s CPU (all threads); ` +
      `rss +${((mem.rss - rssBefore) / 1e6).toFixed(0)} MB`,
  );

  // 3 + 4. queries
  const queries = [
    'year:2015',
    'subject:"Life Sciences"',
    'keyword:Cancer',
    'type:Book',
    'journal:metabolomics',
    'name:Müller',
    'country:Germany',
    'language:de',
    'title:visual',
    'onlinedatefrom:2020-01-01',
    'openaccess:true AND year:2018',
    `doi:${[...generateRecords(1, 1, { offset: Math.floor(N / 2) })][0].doi}`,
    'title:"visual analytics" OR keyword:"Deep learning"',
  ];
  const noCache = await startServer({ catalogue, apiKeys: ['bench:premium'], cacheSize: 0 });
  const cached = await startServer({ catalogue, apiKeys: ['bench:premium'] });
  const url = (base, q, s) => `${base}/meta/v2/json?q=${encodeURIComponent(q)}&s=${s}&p=100&api_key=bench`;
  const rows = [];
  for (const q of queries) {
    const first = await get(url(noCache.url, q, 1));
    if (first.status !== 200) throw new Error(`${q}: status ${first.status}: ${first.body.slice(0, 200)}`);
    const total = Number(JSON.parse(first.body).result[0].total);
    const page1 = [];
    const page1Cpu = [];
    const page100 = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await get(url(noCache.url, q, 1));
      page1.push(r.ms);
      page1Cpu.push(r.cpu);
      if (total > 10_100) page100.push((await get(url(noCache.url, q, 10_000))).ms);
    }
    await get(url(cached.url, q, 1));
    const warm = [];
    for (let i = 0; i < RUNS; i++) warm.push((await get(url(cached.url, q, 1 + 100 * i))).ms);
    rows.push({
      query: q,
      total,
      'page 1 ms (no cache)': +median(page1).toFixed(2),
      'page 1 CPU ms': +median(page1Cpu).toFixed(2),
      's=10000 ms (no cache)': page100.length ? +median(page100).toFixed(2) : '-',
      'ratio s=10000/s=1': page100.length ? +(median(page100) / median(page1)).toFixed(2) : '-',
      'paging ms (cache)': +median(warm).toFixed(2),
    });
  }
  console.table(rows);
  const medians = rows.map((r) => r['page 1 ms (no cache)']);
  const cpuMedians = rows.map((r) => r['page 1 CPU ms']);
  const ratios = rows.map((r) => r['ratio s=10000/s=1']).filter((x) => x !== '-');
  console.log(
    `median of field-query medians (page 1, p=100, no cache): ${median(medians).toFixed(2)} ms; worst ${Math.max(...medians).toFixed(2)} ms`,
  );
  console.log(`median of field-query CPU medians (page 1, p=100, no cache): ${median(cpuMedians).toFixed(2)} ms CPU`);
  console.log(
    `s=10000 vs s=1: worst ratio ${ratios.length ? Math.max(...ratios).toFixed(2) : 'n/a (no result reaches 10,100)'}`,
  );
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  await noCache.close(100);
  await cached.close(100);
  agent.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
