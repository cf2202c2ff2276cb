// Validation throughput: COUNT mapped records (the bundled sample generator,
// normalised and mapped) written as an N-Triples dump, then validated the way
// `scholarly-rdf validate` does it (validateNTriples): the file cut into the lines
// of each record, each batch parsed and validated against the shipped shapes (by
// the walk of our own for the records it finds conforming, FastConformance, else
// by shacl-engine), in the main thread and then in worker threads.
// Prints records/s end to end, CPU per record (of the reading thread, and of all
// threads: on Linux), the rate the reading thread alone would allow with enough
// cores, peak RSS, and heap and RSS at each tenth of the run to show that memory
// stays flat.
//
// Then, where Apache Jena runs (scripts/jena.sh: java and Debian's libapache-jena-java), the anchor of
// issue 24 measured in the same run: JENA_COUNT records (default 10,000) as one N-Triples dump,
// validated by the CLI (`scholarly-rdf validate --jobs 2 --quiet`, whole process) and by Jena SHACL
// (`jena.sh shacl validate`, whole process, the shipped shapes concatenated), in turn, RUNS times;
// prints each one's median wall time and the median of the pairwise ratios ours / Jena (target <= 0.2),
// and the CLI's records/s with --jobs 1 and --jobs 2.
//
// Usage: npm run bench -- validate
//        node --expose-gc bench/validate.bench.mjs [COUNT=100000] [WORKERS=cores] [JENA_COUNT=10000] [RUNS=3]
// Targets: >= 2,000 records/s (issue 6), flat memory; ours / Jena <= 0.2 with two jobs at 10k records (issue 24).
import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
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
const JENA_COUNT = Number(process.argv[4] ?? 10_000);
const RUNS = Number(process.argv[5] ?? 3);
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
console.log(
  `${COUNT} records; ${availableParallelism()} cores; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

/** Writes `count` mapped records of the generator as N-Triples to `path` (not measured). */
async function writeDump(path, count) {
  const out = createWriteStream(path);
  const writer = serializerFor('ntriples').createWriter();
  out.write(writer.start());
  for (const raw of generateRecords(count, 42)) {
    if (!out.write(writer.write(mapRecord(normalizeRecord(raw)).quads))) await once(out, 'drain');
  }
  out.end(writer.end());
  await once(out, 'finish');
}

// The dump, written once (not measured).
const dump = join(tmpdir(), `scholarly-rdf-validate-bench-${process.pid}.nt`);
process.on('exit', () => rmSync(dump, { force: true }));
await writeDump(dump, COUNT);
console.log(`dump: ${dump}, ${mib(statSync(dump).size)} MiB of N-Triples`);

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
console.log(
  `reading and cutting into records alone: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${groups} groups`,
);

async function measure(label, validator, concurrency, workers = 0) {
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const samples = [];
  let records = 0;
  let conforming = 0;
  t0 = performance.now();
  const main0 = mainThreadMs();
  const all0 = allThreadsMs();
  for await (const { key, outcome } of validateNTriples(createReadStream(dump), validator, {
    concurrency,
    source: dump,
  })) {
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
  console.log(
    `  end to end (read, cut, parse, validate, as the CLI): ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s (target >= 2000)`,
  );
  if (Number.isFinite(mainUs)) {
    console.log(
      `  CPU per record: main thread ${Math.round(mainUs)} us, all threads (with GC helpers) ${Math.round(allUs)} us` +
        (workers
          ? `; the reading thread alone would allow ${Math.round(1e6 / mainUs)} records/s given a free core per worker`
          : ''),
    );
  }
  console.log(
    `  peak RSS ${mib(peak)} MiB (main thread and workers); heap/RSS of the main thread after GC at each tenth (MiB): ${samples.join(' ')}`,
  );
}

await measure('main thread', await RecordValidator.create(), 1);
if (WORKERS > 1) {
  const parallel = await ParallelRecordValidator.create({ workers: WORKERS });
  await measure(`${WORKERS} worker threads`, parallel, WORKERS * 4, WORKERS);
  await parallel.close();
}
console.log(
  `\nload average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// The CLI against Apache Jena SHACL on the same dump and shapes, whole processes, in turn.
const root = fileURLToPath(new URL('../', import.meta.url));
const jenaScript = join(root, 'scripts/jena.sh');
const jenaRuns = spawnSync('bash', [jenaScript, 'class', 'java.lang.Object'], { encoding: 'utf8' });
if (JENA_COUNT > 0 && jenaRuns.status !== 127 && existsSync('/usr/share/java/jena-shacl.jar')) {
  const small = join(tmpdir(), `scholarly-rdf-validate-bench-jena-${process.pid}.nt`);
  const shapes = join(tmpdir(), `scholarly-rdf-validate-bench-shapes-${process.pid}.ttl`);
  process.on('exit', () => {
    rmSync(small, { force: true });
    rmSync(shapes, { force: true });
  });
  await writeDump(small, JENA_COUNT);
  // Jena reads one shapes file: the shipped ones, concatenated.
  const shapesDir = join(root, 'shapes');
  writeFileSync(
    shapes,
    readdirSync(shapesDir)
      .filter((f) => f.endsWith('.ttl'))
      .sort()
      .map((f) => readFileSync(join(shapesDir, f), 'utf8'))
      .join('\n'),
  );
  const wall = (command, args, env = {}) => {
    const t = performance.now();
    const r = spawnSync(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
      maxBuffer: 2 ** 26,
    });
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${String(r.stderr).slice(0, 500)}`);
    return (performance.now() - t) / 1000;
  };
  const cli = join(root, 'bin/scholarly-rdf.js');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ours1 = [];
  const ours2 = [];
  const jena = [];
  const ratios = [];
  for (let i = 0; i < RUNS; i++) {
    ours1.push(wall(process.execPath, [cli, 'validate', '--jobs', '1', '--quiet', small]));
    ours2.push(wall(process.execPath, [cli, 'validate', '--jobs', '2', '--quiet', small]));
    // Jena holds the whole graph (2-11 GB at 10k records).
    jena.push(
      wall('bash', [jenaScript, 'shacl', 'validate', '--shapes', shapes, '--data', small], {
        JVM_ARGS: process.env.JVM_ARGS ?? '-Xmx12g',
      }),
    );
    ratios.push(ours2[i] / jena[i]);
  }
  const rate = (s) => Math.round(JENA_COUNT / s);
  console.log(
    `\nthe CLI and Apache Jena SHACL, ${JENA_COUNT} records, whole processes, medians of ${RUNS} runs in turn:`,
  );
  console.log(`  scholarly-rdf validate --jobs 1: ${median(ours1).toFixed(1)} s = ${rate(median(ours1))} records/s`);
  console.log(`  scholarly-rdf validate --jobs 2: ${median(ours2).toFixed(1)} s = ${rate(median(ours2))} records/s`);
  console.log(`  jena.sh shacl validate:          ${median(jena).toFixed(1)} s = ${rate(median(jena))} records/s`);
  console.log(
    `  ours (--jobs 2) / Jena wall time: ${median(ratios).toFixed(2)} (pairwise: ${ratios.map((r) => r.toFixed(2)).join(' ')}; target <= 0.2)`,
  );
} else {
  console.log('\nApache Jena not found (scripts/jena.sh: java and libapache-jena-java): no ratio to Jena SHACL');
}
