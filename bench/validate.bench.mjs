// Validation throughput: COUNT mapped records (the bundled sample generator,
// normalised and mapped) written as an N-Triples dump, then validated the way
// `scholarly-rdf validate` does it: the file parsed, grouped record by record and
// validated against the shipped shapes with shacl-engine, in the main thread and
// then in worker threads.
// Prints records/s (end to end, and with the parsing alone subtracted), CPU per
// record, peak RSS, and heap and RSS at each tenth of the run to show that memory
// stays flat.
//
// Usage: npm run bench -- validate
//        node --expose-gc bench/validate.bench.mjs [COUNT=100000] [WORKERS=cores]
// Target (issue 6): >= 2,000 records/s, flat memory.
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
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
const { groupRecords } = await need('shacl/groupRecords.js');
const { parseRdf } = await need('parse/parseRdf.js');
const { serializerFor } = await need('serialize/serializers.js');
const { mapRecord } = await need('mapping/mapRecord.js');
const { normalizeRecord } = await need('record/normalizeRecord.js');
const { generateRecords } = await need('sample/generateRecords.js');

const mib = (n) => Math.round(n / 2 ** 20);
console.log(`${COUNT} records; ${availableParallelism()} cores; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

// The dump, written once (not measured).
const dump = join(tmpdir(), `scholarly-rdf-validate-bench-${process.pid}.nt`);
process.on('exit', () => rmSync(dump, { force: true }));
{
  const out = createWriteStream(dump);
  const writer = serializerFor('ntriples').createWriter();
  out.write(writer.start());
  for (const raw of generateRecords(COUNT, 42)) {
    if (!out.write(writer.write(mapRecord(normalizeRecord(raw)).quads))) await once(out, 'drain');
  }
  out.end(writer.end());
  await once(out, 'finish');
  console.log(`dump: ${dump}, ${mib(statSync(dump).size)} MiB of N-Triples`);
}
const quadsOfDump = () => parseRdf(createReadStream(dump), { format: 'ntriples', source: dump });

// Parsing and grouping alone, to subtract.
let t0 = performance.now();
let c0 = process.cpuUsage();
let groups = 0;
for await (const _ of groupRecords(quadsOfDump())) groups++;
const parseSeconds = (performance.now() - t0) / 1000;
const parseCpu = process.cpuUsage(c0);
console.log(`parsing and grouping alone: ${parseSeconds.toFixed(1)} s, ${groups} groups`);

async function measure(label, validator, concurrency) {
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const samples = [];
  let records = 0;
  let conforming = 0;
  t0 = performance.now();
  c0 = process.cpuUsage();
  for await (const { key, outcome } of validateStream(quadsOfDump(), validator, { concurrency })) {
    if (key === undefined) continue;
    records++;
    if (outcome.conforms) conforming++;
    if (records % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    if (records % Math.max(1, Math.floor(COUNT / 10)) === 0) {
      globalThis.gc?.();
      const m = process.memoryUsage();
      samples.push(`${mib(m.heapUsed)}/${mib(m.rss)}`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const validateSeconds = Math.max(1e-9, seconds - parseSeconds);
  const mainCpu = (cpu.user + cpu.system - parseCpu.user - parseCpu.system) / 1e6;
  console.log(`\n${label}: ${records} records, ${conforming} conforming`);
  console.log(`  end to end (parse + group + validate, as the CLI): ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s`);
  console.log(`  validation alone (parsing subtracted): ${Math.round(records / validateSeconds)} records/s wall (target >= 2000)` +
    (label.startsWith('main') ? `, ${Math.round(records / Math.max(1e-9, mainCpu))} records per CPU-second` : ''));
  console.log(`  peak RSS ${mib(peak)} MiB (main thread and workers); heap/RSS of the main thread after GC at each tenth (MiB): ${samples.join(' ')}`);
}

await measure('main thread', await RecordValidator.create(), 1);
if (WORKERS > 1) {
  const parallel = await ParallelRecordValidator.create({ workers: WORKERS });
  await measure(`${WORKERS} worker threads`, parallel, WORKERS * 4);
  await parallel.close();
}
console.log(`\nload average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
