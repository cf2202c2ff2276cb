// Validation throughput: COUNT mapped records (the bundled sample generator,
// normalised and mapped) written as an N-Triples dump, then validated the way
// `scholarly-rdf validate` does it (validateNTriples): the file cut into the lines
// of each record, each batch parsed and validated against the shipped shapes with
// shacl-engine, in the main thread and then in worker threads.
// Prints records/s end to end, CPU per record (of the reading thread, and of all
// threads: on Linux), the rate the reading thread alone would allow with enough
// cores, peak RSS, and heap and RSS at each tenth of the run to show that memory
// stays flat.
//
// Usage: npm run bench -- validate
//        node --expose-gc bench/validate.bench.mjs [COUNT=100000] [WORKERS=cores]
// Target (issue 6): >= 2,000 records/s, flat memory.
import { createReadStream, createWriteStream, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
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
const { validateNTriples } = await need('shacl/validateStream.js');
const { groupNTriplesRecords } = await need('group/groupNTriplesRecords.js');
const { decodeUtf8 } = await need('parse/decodeUtf8.js');
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

// CPU milliseconds of one thread (Linux: /proc/self/task/<tid>/stat), or of all threads of the process.
const threadMs = (tid) => {
  try {
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
};
const mainThreadMs = () => threadMs(process.pid);
const allThreadsMs = () => {
  try {
    return readdirSync('/proc/self/task').reduce((sum, tid) => sum + threadMs(tid), 0);
  } catch {
    return NaN;
  }
};

// Reading and cutting into records alone (what the reading thread does besides posting).
let t0 = performance.now();
let groups = 0;
for await (const _ of groupNTriplesRecords(decodeUtf8(createReadStream(dump)))) groups++;
console.log(`reading and cutting into records alone: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${groups} groups`);

async function measure(label, validator, concurrency, workers = 0) {
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const samples = [];
  let records = 0;
  let conforming = 0;
  t0 = performance.now();
  const main0 = mainThreadMs();
  const all0 = allThreadsMs();
  for await (const { key, outcome } of validateNTriples(createReadStream(dump), validator, { concurrency, source: dump })) {
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
  const mainUs = ((mainThreadMs() - main0) / records) * 1000;
  const allUs = ((allThreadsMs() - all0) / records) * 1000;
  console.log(`\n${label}: ${records} records, ${conforming} conforming`);
  console.log(`  end to end (read, cut, parse, validate, as the CLI): ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s (target >= 2000)`);
  if (Number.isFinite(mainUs)) {
    console.log(`  CPU per record: main thread ${Math.round(mainUs)} us, all threads (with GC helpers) ${Math.round(allUs)} us` +
      (workers ? `; the reading thread alone would allow ${Math.round(1e6 / mainUs)} records/s given a free core per worker` : ''));
  }
  console.log(`  peak RSS ${mib(peak)} MiB (main thread and workers); heap/RSS of the main thread after GC at each tenth (MiB): ${samples.join(' ')}`);
}

await measure('main thread', await RecordValidator.create(), 1);
if (WORKERS > 1) {
  const parallel = await ParallelRecordValidator.create({ workers: WORKERS });
  await measure(`${WORKERS} worker threads`, parallel, WORKERS * 4, WORKERS);
  await parallel.close();
}
console.log(`\nload average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
