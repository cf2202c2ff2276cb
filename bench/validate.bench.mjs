// Validation throughput: COUNT mapped records (the bundled sample generator,
// normalised and mapped) written as an N-Triples dump, then validated the way
// `scholarly-rdf validate` does it (validateNTriples): the file cut into the lines
// of each record, each batch parsed and validated against the shipped shapes (by
// the SHACL Core engine of our own, src/shacl/engine/), in the main thread, and then
// in worker threads that read, cut and validate their own parts of the file as
// `validate --jobs N` does (validateFileParts); no scope check (RecordValidator as
// the library makes it).
// Prints records/s end to end, CPU per record (of the reading thread, and of all
// threads: on Linux), the rate the reading thread alone would allow with enough
// cores, peak RSS, and heap and RSS at each tenth of the run to show that memory
// stays flat.
//
// Then, whole processes in turn, RUNS times, on JENA_COUNT records (default 10,000): `scholarly-rdf convert`
// (JSON lines to N-Triples), `convert --validate`, `validate --jobs 1` and `--jobs 2` of that dump, and Apache
// Jena SHACL on it (`shacl validate`, the shipped shapes concatenated: Jena 5.6 from the jars of
// $SCHOLARLY_JENA_LIB, else Debian's 4.5 through scripts/jena.sh, else none); prints each one's median wall time,
// CPU (user + sys, by GNU time) and peak RSS, records/s, and the medians of the pairwise ratios: convert --validate
// / convert (target <= 1.3), validation / conversion, validation / Jena (issue 24's target <= 0.2 with two jobs).
//
// Usage: npm run bench -- validate
//        node --expose-gc bench/validate.bench.mjs [COUNT=100000] [WORKERS=cores] [JENA_COUNT=10000] [RUNS=3]
// Targets: >= 6,000 records/s with one job and >= 10,000 with two, < 300 MB (issue 36), flat memory; convert --validate
// within 1.3x of convert's wall time (issue 36); ours / Jena <= 0.2 with two jobs at 10k records (issue 24).
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
const { validateFileParts } = await need('shacl/validateFileParts.js');
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
  // Workers read their own parts of the file, as `validate --jobs N` does with a plain file (validateFileParts).
  const outcomes = workers
    ? validateFileParts(dump, validator, { format: 'ntriples', source: dump })
    : validateNTriples(createReadStream(dump), validator, { concurrency, source: dump });
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const samples = [];
  let records = 0;
  let conforming = 0;
  t0 = performance.now();
  const main0 = mainThreadMs();
  const all0 = allThreadsMs();
  for await (const { key, outcome } of outcomes) {
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
    `  end to end (read, cut, parse, validate, as the CLI): ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s (target >= 6000 with one job, 10000 with two)`,
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

// The CLI's validation against its conversion and Apache Jena SHACL on the same records and shapes, whole
// processes, in turn: convert (JSON lines to N-Triples), convert --validate, validate --jobs 1 and 2 of that dump,
// and Jena SHACL (5.6 from $SCHOLARLY_JENA_LIB, else Debian's 4.5 through scripts/jena.sh) on the same dump.
const root = fileURLToPath(new URL('../', import.meta.url));
const jenaScript = join(root, 'scripts/jena.sh');
const jenaLib = process.env.SCHOLARLY_JENA_LIB;
const jena5 = !!jenaLib && existsSync(jenaLib);
const jena45 =
  !jena5 &&
  spawnSync('bash', [jenaScript, 'class', 'java.lang.Object'], { encoding: 'utf8' }).status !== 127 &&
  existsSync('/usr/share/java/jena-shacl.jar');
if (JENA_COUNT > 0) {
  const small = join(tmpdir(), `scholarly-rdf-validate-bench-jena-${process.pid}.nt`);
  const records = join(tmpdir(), `scholarly-rdf-validate-bench-records-${process.pid}.jsonl`);
  const shapes = join(tmpdir(), `scholarly-rdf-validate-bench-shapes-${process.pid}.ttl`);
  process.on('exit', () => {
    for (const f of [small, records, shapes]) rmSync(f, { force: true });
  });
  await writeDump(small, JENA_COUNT);
  writeFileSync(records, [...generateRecords(JENA_COUNT, 42)].map((r) => `${JSON.stringify(r)}\n`).join(''));
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
  // Wall time, and CPU (user + sys) and peak RSS of the process by GNU time when it is there.
  const gnuTime = existsSync('/usr/bin/time');
  const run = (command, args, env = {}) => {
    const timing = join(tmpdir(), `scholarly-rdf-validate-bench-time-${process.pid}`);
    const t = performance.now();
    const r = gnuTime
      ? spawnSync('/usr/bin/time', ['-o', timing, '-f', '%U %S %M', command, ...args], {
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, ...env },
          maxBuffer: 2 ** 26,
        })
      : spawnSync(command, args, {
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, ...env },
          maxBuffer: 2 ** 26,
        });
    const wall = (performance.now() - t) / 1000;
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${String(r.stderr).slice(0, 500)}`);
    let cpu = NaN;
    let rss = NaN;
    if (gnuTime) {
      const [user, sys, kb] = readFileSync(timing, 'utf8').trim().split('\n').pop().split(' ').map(Number);
      cpu = user + sys;
      rss = kb / 1024;
      rmSync(timing, { force: true });
    }
    return { wall, cpu, rss };
  };
  const cli = join(root, 'bin/scholarly-rdf.js');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const commands = {
    convert: () =>
      run(process.execPath, [cli, 'convert', records, '-f', 'ntriples', '-o', `${small}.out.nt`, '--quiet']),
    'convert --validate': () =>
      run(process.execPath, [
        cli,
        'convert',
        records,
        '-f',
        'ntriples',
        '-o',
        `${small}.out.nt`,
        '--quiet',
        '--validate',
      ]),
    'validate --jobs 1': () => run(process.execPath, [cli, 'validate', '--jobs', '1', '--quiet', small]),
    'validate --jobs 2': () => run(process.execPath, [cli, 'validate', '--jobs', '2', '--quiet', small]),
  };
  // Jena holds the whole graph (2-11 GB at 10k records).
  const jvm = process.env.JVM_ARGS ?? '-Xmx12g';
  if (jena5)
    commands['Jena 5.6 shacl validate'] = () =>
      run('java', [
        ...jvm.split(' '),
        '-cp',
        `${jenaLib}/*`,
        'shacl.shacl',
        'validate',
        '--shapes',
        shapes,
        '--data',
        small,
      ]);
  else if (jena45)
    commands['Jena 4.5 shacl validate'] = () =>
      run('bash', [jenaScript, 'shacl', 'validate', '--shapes', shapes, '--data', small], { JVM_ARGS: jvm });
  process.on('exit', () => rmSync(`${small}.out.nt`, { force: true }));
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) for (const [name, command] of Object.entries(commands)) times[name].push(command());
  const m = (name, field) => median(times[name].map((t) => t[field]));
  const ratio = (a, b, field) => median(times[a].map((t, i) => t[field] / times[b][i][field]));
  console.log(
    `\nthe CLI's conversion and validation${jena5 || jena45 ? ' and Apache Jena SHACL' : ''}, ${JENA_COUNT} records, whole processes, medians of ${RUNS} runs in turn; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}:`,
  );
  for (const name of Object.keys(commands)) {
    console.log(
      `  ${name.padEnd(26)} wall ${m(name, 'wall').toFixed(1)} s = ${Math.round(JENA_COUNT / m(name, 'wall'))} records/s; ` +
        `CPU ${m(name, 'cpu').toFixed(1)} s = ${Math.round(JENA_COUNT / m(name, 'cpu'))} records/s per core; peak RSS ${Math.round(m(name, 'rss'))} MiB`,
    );
  }
  const pair = (a, b, target = '') =>
    console.log(
      `  ${a} / ${b}: wall ${ratio(a, b, 'wall').toFixed(2)}, CPU ${ratio(a, b, 'cpu').toFixed(2)} (medians of the pairwise ratios)${target}`,
    );
  pair('convert --validate', 'convert', '; target: wall <= 1.3');
  pair('validate --jobs 1', 'convert');
  pair('validate --jobs 2', 'convert');
  const jenaName = Object.keys(commands).find((k) => k.startsWith('Jena'));
  if (jenaName) {
    pair('validate --jobs 1', jenaName);
    pair('validate --jobs 2', jenaName, '; target (issue 24): wall <= 0.2');
  } else console.log('  Apache Jena not found ($SCHOLARLY_JENA_LIB, or scripts/jena.sh): no ratio to Jena SHACL');
}
