// Validation throughput: COUNT mapped records (generated, normalised, mapped: the
// bundled sample generator) validated record by record against the shipped shapes
// with shacl-engine, in the main thread and then in worker threads.
// Prints records/s (wall and per CPU-second), peak RSS, and RSS at each tenth of
// the run to show that memory stays flat.
//
// Usage: npm run bench -- validate
//        node --expose-gc bench/validate.bench.mjs [COUNT=100000] [WORKERS=cores]
// Target (issue 6): >= 2,000 records/s, flat memory.
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/', import.meta.url);
const need = (p) => {
  const path = fileURLToPath(new URL(p, dist));
  if (!existsSync(path)) throw new Error(`${path} missing: run npm run build first`);
  return import(path);
};
const COUNT = Number(process.argv[2] ?? 100_000);
const WORKERS = Number(process.argv[3] ?? Math.min(8, availableParallelism()));
const { RecordValidator } = await need('shacl/RecordValidator.js');
const { ParallelRecordValidator } = await need('shacl/ParallelRecordValidator.js');
const { validateStream } = await need('shacl/validateStream.js');
const { mapRecord } = await need('mapping/mapRecord.js');
const { normalizeRecord } = await need('record/normalizeRecord.js');
const { generateRecords } = await need('sample/generateRecords.js');

// The records are made as they are validated (a stream): nothing is kept.
async function* mappedQuads(count) {
  for (const raw of generateRecords(count, 42)) yield* mapRecord(normalizeRecord(raw)).quads;
}

const mib = (n) => Math.round(n / 2 ** 20);
console.log(`${COUNT} records; ${availableParallelism()} cores; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

// Time and CPU to make the quads alone, to subtract.
let t0 = performance.now();
let c0 = process.cpuUsage();
let quadCount = 0;
for await (const _ of mappedQuads(COUNT)) quadCount++;
const makeSeconds = (performance.now() - t0) / 1000;
const makeCpu = process.cpuUsage(c0);
console.log(`making the records (generate + normalise + map): ${makeSeconds.toFixed(1)} s, ${quadCount} quads (${(quadCount / COUNT).toFixed(1)} a record)`);

async function measure(label, validator, concurrency) {
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const samples = [];
  let records = 0;
  let conforming = 0;
  t0 = performance.now();
  c0 = process.cpuUsage();
  for await (const { key, outcome } of validateStream(mappedQuads(COUNT), validator, { concurrency })) {
    if (key === undefined) continue;
    records++;
    if (outcome.conforms) conforming++;
    if (records % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    if (records % Math.max(1, Math.floor(COUNT / 10)) === 0) samples.push(mib(process.memoryUsage().rss));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const validateSeconds = Math.max(1e-9, seconds - makeSeconds);
  const mainCpu = (cpu.user + cpu.system - makeCpu.user - makeCpu.system) / 1e6;
  console.log(`\n${label}: ${records} records, ${conforming} conforming`);
  console.log(`  end to end (make + validate): ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s`);
  console.log(`  validation alone: ${Math.round(records / validateSeconds)} records/s wall (target >= 2000)` +
    (label.startsWith('main') ? `, ${Math.round(records / Math.max(1e-9, mainCpu))} records per CPU-second` : ''));
  console.log(`  peak RSS ${mib(peak)} MiB; RSS at each tenth (MiB): ${samples.join(' ')}`);
}

await measure('main thread', await RecordValidator.create(), 1);
if (WORKERS > 1) {
  const parallel = await ParallelRecordValidator.create({ workers: WORKERS });
  await measure(`${WORKERS} worker threads`, parallel, WORKERS * 4);
  await parallel.close();
}
console.log(`\nload average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
