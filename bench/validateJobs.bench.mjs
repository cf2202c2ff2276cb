// `validate --jobs N` against `--jobs 1`, in one run: triples/s and the ratio, the CPU time (user + system, all
// threads) per triple of each and their ratio, peak RSS, and the SHA-256 of the two reports and summaries (they must be
// the same bytes), on an N-Triples dump of generated records (mapped as convert maps them; some made not to conform).
// With several counts (--counts 1000,5000,20000) it shows where --jobs N starts to pay: the crossover behind the
// default (`jobs` auto from 16 MiB of text).
// Usage: npm run bench -- validateJobs
//        node bench/validateJobs.bench.mjs [--counts 100000] [--jobs 2] [--rounds 1] [--threads] [--timeline]
// Runs against dist/ (npm run build). Every validation runs in a child process of its own (validateDump, as the CLI
// calls it, with a report), so its time and peak RSS are its own; with --rounds R the pairs alternate (1, N, 1, N,
// ...) and the median of each is reported. Others loading the machine lower the wall ratio (not much the CPU per
// triple): the load average is printed before and after each count, and the cores other processes kept busy during
// each mode's runs (as bench/convertJobs prints them). --threads (Linux): the CPU by thread, as
// bench/convertJobs prints it (this thread, the N busiest others: the workers, and the rest: V8's and libuv's helpers).
// --timeline: one more --jobs N run (not in the medians), with SCHOLARLY_RDF_TIMELINE set, and its timeline by thread
// (bench/validateTimeline.mjs: where each worker's time went, busy or idle, and why).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, pairedCells } from './pairedRuns.mjs';
import { hostLoadCell, withHostLoad } from './hostLoad.mjs';
import { watchThreads } from './threadCpu.mjs';
import { summarizeTimeline, timelineLines } from './validateTimeline.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => pathToFileURL(join(ROOT, 'dist', p)).href;
const SEED = 42;

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** The child: one validation, its figures as one line of JSON. */
async function child([jobs, input, report]) {
  const threads = await watchThreads();
  const { validateDump } = await import(dist('tasks/validateDump.js'));
  const started = performance.now();
  const result = await validateDump({ files: [input], jobs: Number(jobs), reportPath: report });
  const ms = performance.now() - started;
  const usage = process.resourceUsage();
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  const summary = createHash('sha256').update(result.summary.toLines().join('\n')).digest('hex');
  console.log(
    JSON.stringify({
      ms,
      cpuMs,
      rssMb: usage.maxRSS / 1024,
      records: result.summary.records,
      notConforming: result.summary.records - result.summary.conforming,
      jobs: result.jobs,
      mode: result.mode.mode,
      summary,
      ...threads.split(Number(jobs)),
    }),
  );
}

/** An N-Triples dump of `count` generated records (every 10th without its title); its path and triples. */
async function makeDump(count, dir) {
  const path = join(dir, `validate-${count}-${SEED}.nt`);
  const countPath = `${path}.triples`;
  if (existsSync(path) && existsSync(countPath)) return { path, triples: Number(readFileSync(countPath, 'utf8')) };
  const { generateRecords } = await import(dist('sample/generateRecords.js'));
  const { normalizeRecord } = await import(dist('record/normalizeRecord.js'));
  const { mapRecord } = await import(dist('mapping/mapRecord.js'));
  const { serializerFor } = await import(dist('serialize/serializers.js'));
  const writer = serializerFor('ntriples').createWriter();
  const out = createWriteStream(`${path}.part`);
  let text = '';
  let triples = 0;
  let i = 0;
  for (const record of generateRecords(count, SEED)) {
    let quads = mapRecord(normalizeRecord(record)).quads;
    if (i++ % 10 === 0)
      quads = quads.filter(
        (q) => !(q.subject.value.startsWith('https://doi.org/') && q.predicate.value === 'http://schema.org/name'),
      );
    triples += quads.length;
    text += writer.write(quads);
    if (text.length < 1 << 20) continue;
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
    text = '';
  }
  await new Promise((resolve, reject) => out.end(text, (err) => (err ? reject(err) : resolve())));
  renameSync(`${path}.part`, path);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(countPath, String(triples));
  return { path, triples };
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function validate(jobs, input, report, env = process.env) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(jobs), input, report], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    env,
  });
  if (r.status !== 0)
    throw new Error(`--jobs ${jobs} failed (${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function main() {
  const counts = arg('counts', arg('count', '100000')).split(',').map(Number);
  const jobs = Number(arg('jobs', '2'));
  const rounds = Number(arg('rounds', '1'));
  const dir = join(tmpdir(), 'scholarly-rdf-bench');
  mkdirSync(dir, { recursive: true });
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(
    `validate --jobs ${jobs} vs --jobs 1: N-Triples dumps of generated records (seed ${SEED}), ${availableParallelism()} cores, ${rounds} round(s), medians, whole validateDump with a report`,
  );
  console.log(
    "records   MiB  jobs=1 triples/s  jobs=N triples/s  ratio  CPU ns/triple 1  CPU ns/triple N  CPU ratio  RSS jobs=1  RSS jobs=N  report+summary SHA-256  others' cores 1 / N  load before / after",
  );
  for (const count of counts) {
    const { path, triples } = await makeDump(count, dir);
    const before = load();
    const runs = { 1: [], [jobs]: [] };
    const hashes = {};
    for (let round = 0; round < rounds; round++) {
      for (const j of [1, jobs]) {
        const report = join(dir, `report-${j}.ttl`);
        const r = withHostLoad(() => validate(j, path, report));
        runs[j].push(r);
        hashes[j] = createHash('sha256').update(sha256(report)).update(r.summary).digest('hex');
        rmSync(report, { force: true });
      }
    }
    const cells = [
      String(count).padEnd(7),
      String(Math.round(statSync(path).size / 2 ** 20)).padStart(5),
      ...pairedCells(runs, jobs, () => triples, hashes),
      hostLoadCell(runs, jobs, median).padStart(20),
      ` ${before} / ${load()}`,
    ];
    console.log(cells.join(' '));
    if (process.argv.includes('--threads'))
      for (const j of [1, jobs]) {
        const s = (key) => (median(runs[j].map((r) => r[key])) / 1000).toFixed(2);
        console.log(
          `  ${count} --jobs ${j} CPU by thread, s: main ${s('mainMs')}, workers ${s('workersMs')}, V8 and libuv helpers ${s('helpersMs')}, all ${s('cpuMs')}`,
        );
      }
    if (process.argv.includes('--timeline')) {
      const file = join(dir, `timeline-${count}.jsonl`);
      const report = join(dir, `report-timeline.ttl`);
      rmSync(file, { force: true });
      try {
        validate(jobs, path, report, { ...process.env, SCHOLARLY_RDF_TIMELINE: file });
        for (const line of timelineLines(summarizeTimeline(file))) console.log(`  ${count} --jobs ${jobs} ${line}`);
      } finally {
        rmSync(file, { force: true });
        rmSync(report, { force: true });
      }
    }
    if (hashes[1] !== hashes[jobs] || runs[jobs][0].jobs !== jobs) process.exitCode = 1;
  }
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
