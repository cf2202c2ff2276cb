// `convert --jobs N` against `--jobs 1` (this thread), in one run: triples/s and the ratio, the CPU time (user +
// system, all threads) per triple of each and their ratio, peak RSS, and the SHA-256 of the two outputs (they must be
// the same bytes), per format, on generated records (newline-delimited JSON).
// Usage: npm run bench -- convertJobs
//        node bench/convertJobs.bench.mjs [--count 100000] [--formats turtle,ntriples] [--jobs 2] [--rounds 1]
//          [--threads]
// Runs against dist/ (npm run build). Every conversion runs in a child process of its own (convertFiles, as the CLI
// calls it, output to a temporary file), so its time and peak RSS are its own; with --rounds R the pairs alternate
// (1, N, 1, N, ...) and the median of each is reported, with the lowest and highest ratio of a pair (the spread: a wide
// one says others loaded the machine). Others loading the machine lower the wall ratio (not much the CPU per triple):
// the load average is printed before and after each format, and the cores other processes kept busy during each
// mode's runs (medians; /proc/stat less the child's own CPU; stolen time apart when the hypervisor took any): near 0
// means the run had the machine to itself. The user CPU ratio and the system seconds of each mode are
// printed apart: much of the system time is the kernel copying the output into the page cache, which on a virtual
// machine varies several-fold between runs that write the same bytes.
// --threads (Linux): where the CPU time went, by thread (/proc/self/task/*/stat, read before the workers end): this
// thread, the record workers (the N busiest other threads of --jobs N), and the rest (V8's platform threads: compiling
// and collecting garbage; libuv's: file reads and writes), in seconds, medians.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, pairSpread, pairedCells } from './pairedRuns.mjs';
import { hostLoadCell, withHostLoad } from './hostLoad.mjs';
import { watchThreads } from './threadCpu.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => pathToFileURL(join(ROOT, 'dist', p)).href;
const SEED = 42;
const EXTENSIONS = { turtle: 'ttl', ntriples: 'nt', nquads: 'nq', jsonld: 'jsonld', rdfxml: 'rdf' };

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** The child: one conversion, its figures as one line of JSON. */
async function child([format, jobs, input, output]) {
  const threads = await watchThreads();
  const { convertFiles } = await import(dist('tasks/convertFiles.js'));
  const started = performance.now();
  const summary = await convertFiles({
    inputs: [input],
    output,
    format,
    jobs: Number(jobs),
    rejectsPath: `${output}.rejects.jsonl`,
  });
  const ms = performance.now() - started;
  const usage = process.resourceUsage();
  const userMs = usage.userCPUTime / 1000;
  const sysMs = usage.systemCPUTime / 1000;
  console.log(
    JSON.stringify({
      ms,
      cpuMs: userMs + sysMs,
      userMs,
      sysMs,
      statements: summary.statements,
      mapped: summary.mapped,
      rssMb: usage.maxRSS / 1024,
      ...threads.split(Number(jobs)),
    }),
  );
}

async function makeInput(count, dir) {
  const path = join(dir, `records-${count}-${SEED}.jsonl`);
  if (existsSync(path)) return path;
  const { generateRecords } = await import(dist('sample/generateRecords.js'));
  const out = createWriteStream(`${path}.part`);
  let text = '';
  for (const record of generateRecords(count, SEED)) {
    text += `${JSON.stringify(record)}\n`;
    if (text.length < 1 << 20) continue;
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
    text = '';
  }
  await new Promise((resolve, reject) => out.end(text, (err) => (err ? reject(err) : resolve())));
  const { renameSync } = await import('node:fs');
  renameSync(`${path}.part`, path);
  return path;
}

function sha256(path) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (b) => hash.update(b))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

function convert(format, jobs, input, output) {
  const r = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', format, String(jobs), input, output],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (r.status !== 0)
    throw new Error(
      `${format} --jobs ${jobs} failed (${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function main() {
  const source = readFileSync(join(ROOT, 'dist/tasks/convertFiles.js'), 'utf8');
  if (!source.includes('ParallelRecordSink')) {
    console.log(
      'skipped: convertFiles (dist/) does not take `jobs` yet (it does not use ParallelRecordSink); run npm run build after wiring it',
    );
    return;
  }
  const count = Number(arg('count', '100000'));
  const jobs = Number(arg('jobs', '2'));
  const rounds = Number(arg('rounds', '1'));
  const formats = arg('formats', Object.keys(EXTENSIONS).join(',')).split(',');
  const byThread = process.argv.includes('--threads');
  const dir = join(tmpdir(), 'scholarly-rdf-bench');
  mkdirSync(dir, { recursive: true });
  const input = await makeInput(count, dir);
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(
    `convert --jobs ${jobs} vs --jobs 1: ${count.toLocaleString('en')} generated records (seed ${SEED}), ${availableParallelism()} cores, ${rounds} round(s), medians`,
  );
  console.log(
    "format     jobs=1 triples/s  jobs=N triples/s  ratio  CPU ns/triple 1  CPU ns/triple N  CPU ratio  RSS jobs=1  RSS jobs=N  SHA-256 (both)    user ratio  sys s 1 / N  pairs: ratio      CPU ratio  others' cores 1 / N  load before / after",
  );
  for (const format of formats) {
    const before = load();
    const runs = { 1: [], [jobs]: [] };
    const hashes = {};
    for (let round = 0; round < rounds; round++) {
      for (const j of [1, jobs]) {
        const output = join(dir, `out-${j}.${EXTENSIONS[format]}`);
        runs[j].push(withHostLoad(() => convert(format, j, input, output)));
        hashes[j] = await sha256(output);
        rmSync(output, { force: true });
        rmSync(`${output}.rejects.jsonl`, { force: true });
      }
    }
    const spread = pairSpread(runs, jobs);
    const cells = [
      format.padEnd(10),
      ...pairedCells(runs, jobs, (r) => r.statements, hashes),
      `${(median(runs[jobs].map((r) => r.userMs)) / median(runs[1].map((r) => r.userMs))).toFixed(2)}x`.padStart(11),
      `${(median(runs[1].map((r) => r.sysMs)) / 1000).toFixed(2)} / ${(median(runs[jobs].map((r) => r.sysMs)) / 1000).toFixed(2)}`.padStart(
        12,
      ),
      spread.wall.padStart(14),
      spread.cpu.padStart(12),
      hostLoadCell(runs, jobs, median).padStart(19),
      ` ${before} / ${load()}`,
    ];
    console.log(cells.join(' '));
    if (byThread)
      for (const j of [1, jobs]) {
        const s = (key) => (median(runs[j].map((r) => r[key])) / 1000).toFixed(2);
        console.log(
          `  ${format} --jobs ${j} CPU by thread, s: main ${s('mainMs')}, workers ${s('workersMs')}, V8 and libuv helpers ${s('helpersMs')}, all ${s('cpuMs')}`,
        );
      }
    if (hashes[1] !== hashes[jobs]) process.exitCode = 1;
  }
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
