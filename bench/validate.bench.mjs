// Validation throughput: 100,000 mapped records (generated, normalised, mapped)
// validated record by record against the shipped shapes, with shacl-engine.
// Prints records/s and peak RSS, and RSS at each tenth to show memory stays flat.
// Usage: npm run bench -- validate      (or: node --expose-gc bench/validate.bench.mjs [COUNT])
// Target (issue 6): >= 2,000 records/s, flat memory.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/', import.meta.url);
const need = (p) => {
  const path = fileURLToPath(new URL(p, dist));
  if (!existsSync(path)) throw new Error(`${path} missing: run npm run build first`);
  return import(path);
};
const COUNT = Number(process.argv[2] ?? 100_000);
const { RecordValidator } = await need('shacl/RecordValidator.js');
const { validateStream } = await need('shacl/validateStream.js');
const { mapRecord } = await need('mapping/mapRecord.js');
const { normalizeRecord } = await need('record/normalizeRecord.js');
const { generateRecords } = await need('sample/generateRecords.js');

async function* mappedQuads(count) {
  for (const raw of generateRecords(count, 42)) yield* mapRecord(normalizeRecord(raw)).quads;
}

// Time to make the quads alone, to subtract from the validation run.
let t0 = performance.now();
let quadCount = 0;
for await (const _ of mappedQuads(COUNT)) quadCount++;
const makeSeconds = (performance.now() - t0) / 1000;
globalThis.gc?.();

const validator = await RecordValidator.create();
let peak = process.memoryUsage().rss;
const samples = [];
let records = 0;
let conforming = 0;
const failing = new Map();
t0 = performance.now();
for await (const { key, outcome } of validateStream(mappedQuads(COUNT), validator)) {
  if (key === undefined) continue;
  records++;
  if (outcome.conforms) conforming++;
  for (const r of outcome.results) {
    const id = `${r.severity} ${r.shape.value.split('#')[1]} ${r.path ?? ''}`;
    failing.set(id, (failing.get(id) ?? 0) + 1);
  }
  if (records % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  if (records % (COUNT / 10) === 0) samples.push(Math.round(process.memoryUsage().rss / 2 ** 20));
}
const seconds = (performance.now() - t0) / 1000;
const validateSeconds = Math.max(1e-9, seconds - makeSeconds);
console.log(`records: ${records}, quads: ${quadCount}, conforming: ${conforming}`);
for (const [id, n] of [...failing].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${n} ${id}`);
console.log(`generate+normalise+map alone: ${makeSeconds.toFixed(1)} s`);
console.log(`generate+map+validate: ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s end to end`);
console.log(`validation alone: ${Math.round(records / validateSeconds)} records/s (target >= 2000)`);
console.log(`peak RSS: ${Math.round(peak / 2 ** 20)} MiB; RSS at each tenth (MiB): ${samples.join(' ')}`);
