// Conversion per core, as a user runs it: `scholarly-rdf convert records.jsonl -f FORMAT > /dev/null` (one process,
// no --jobs) on generated records, per format: triples/s, time per triple as a ratio to `serdi` (C, the Debian package
// serdi) rewriting the same N-Triples (`serdi -i ntriples -o ntriples dump.nt > /dev/null`) timed in the same run, and
// peak RSS. With --vs ROOT, the same conversions by another build (a package root with bin/ and dist/, e.g. a copy of
// the code before a change) alternate with this one, and their ratio is printed too.
// Usage: npm run bench -- convert
//        node bench/convert.bench.mjs [--count 100000] [--formats ntriples,nquads,turtle,jsonld,rdfxml] [--rounds 3] [--vs ROOT]
// Runs against dist/ (npm run build). Each run is a process of its own, timed by GNU time (/usr/bin/time) when it is
// there (else wall time only); the runs of one round alternate (ours, serdi, --vs, ours, ...) and the medians are
// printed. Others loading the machine slow every command alike: quote the ratios, with the load average printed first.
import { spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEED = 42;
const GNU_TIME = '/usr/bin/time';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** Generated records as newline-delimited JSON (made once per count, untimed). */
async function makeInput(count, dir) {
  const path = join(dir, `records-${count}-${SEED}.jsonl`);
  if (existsSync(path)) return path;
  const { generateRecords } = await import(pathToFileURL(join(ROOT, 'dist/sample/generateRecords.js')).href);
  const out = createWriteStream(`${path}.part`);
  let text = '';
  for (const record of generateRecords(count, SEED)) {
    text += `${JSON.stringify(record)}\n`;
    if (text.length >= 1 << 20 && !out.write(text)) await new Promise((r) => out.once('drain', r));
    if (text.length >= 1 << 20) text = '';
  }
  await new Promise((r) => out.end(text, r));
  spawnSync('mv', [`${path}.part`, path]);
  return path;
}

/** Runs a command with stdout to `stdoutPath` (default /dev/null): wall seconds, and CPU seconds and peak RSS when GNU time is there. */
function timed(command, args, stdoutPath = '/dev/null') {
  const fd = openSync(stdoutPath, 'w');
  const withTime = existsSync(GNU_TIME);
  const started = performance.now();
  const r = withTime
    ? spawnSync(GNU_TIME, ['-f', '%U %S %M', command, ...args], { stdio: ['ignore', fd, 'pipe'], maxBuffer: 1 << 26 })
    : spawnSync(command, args, { stdio: ['ignore', fd, 'pipe'], maxBuffer: 1 << 26 });
  const wall = (performance.now() - started) / 1000;
  closeSync(fd);
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  if (!withTime) return { wall };
  const [user, sys, maxKb] = String(r.stderr).trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, rssMb: maxKb / 1024 };
}

/** Lines of a file (of any size), read in chunks. */
function countLines(path) {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) for (let i = 0; i < n; i++) if (buf[i] === 10) lines++;
  closeSync(fd);
  return lines;
}

const convert = (root, input, format, out) =>
  timed(process.execPath, [join(root, 'bin/scholarly-rdf.js'), 'convert', input, '-f', format, '--quiet'], out);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main() {
  const count = Number(arg('count', '100000'));
  const formats = arg('formats', 'ntriples,nquads,turtle,jsonld,rdfxml').split(',');
  const rounds = Number(arg('rounds', '3'));
  const vs = arg('vs', undefined);
  const dir = join(tmpdir(), 'scholarly-rdf-bench');
  mkdirSync(dir, { recursive: true });
  const input = await makeInput(count, dir);
  // The dump serdi rewrites, and the number of triples of every format (the mapper writes the same triples to all).
  const dump = join(dir, `dump-${count}.nt`);
  convert(ROOT, input, 'ntriples', dump);
  const triples = countLines(dump);
  const serdi = spawnSync('serdi', ['-v']).error
    ? undefined
    : () => timed('serdi', ['-i', 'ntriples', '-o', 'ntriples', dump]);
  console.log(
    `conversion benchmark: node ${process.version}, ${fmt(count)} records, ${fmt(triples)} triples, ${rounds} round(s), output to /dev/null, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    serdi
      ? 'anchor: serdi -i ntriples -o ntriples dump.nt > /dev/null, timed beside every conversion'
      : 'anchor: serdi is not installed (apt-get install serdi): no ratio',
  );
  if (vs) console.log(`--vs ${vs}: that build's conversions alternate with these`);
  const cpuNote = existsSync(GNU_TIME) ? '' : ' (GNU time missing: wall time only)';
  console.log(
    `\nformat      triples/s   CPU s   ÷ serdi time/triple (wall, cpu)   peak RSS MB${vs ? '   this ÷ --vs (wall, cpu)' : ''}${cpuNote}`,
  );
  for (const format of formats) {
    const ours = [];
    const anchor = [];
    const other = [];
    for (let r = 0; r < rounds; r++) {
      ours.push(convert(ROOT, input, format));
      if (serdi) anchor.push(serdi());
      if (vs) other.push(convert(vs, input, format));
    }
    const wall = median(ours.map((o) => o.wall));
    const cpu = ours[0].cpu === undefined ? undefined : median(ours.map((o) => o.cpu));
    const pairs = (xs, key) => median(ours.map((o, i) => o[key] / xs[i][key]));
    const toSerdi = serdi
      ? `${pairs(anchor, 'wall').toFixed(2)}, ${cpu === undefined ? '-' : pairs(anchor, 'cpu').toFixed(2)}`
      : '-';
    const rss = cpu === undefined ? '-' : String(Math.round(Math.max(...ours.map((o) => o.rssMb))));
    const toOther = vs
      ? `   ${pairs(other, 'wall').toFixed(2)}, ${cpu === undefined ? '-' : pairs(other, 'cpu').toFixed(2)}`
      : '';
    console.log(
      `${format.padEnd(10)} ${fmt(triples / wall).padStart(10)} ${(cpu ?? 0).toFixed(1).padStart(7)}   ${toSerdi.padStart(14)}                    ${rss.padStart(6)}${toOther}`,
    );
  }
  if (serdi)
    console.log(
      `serdi      ${fmt(triples / median(Array.from({ length: 1 }, () => serdi().wall))).padStart(10)} (one more run, after the rest)`,
    );
  rmSync(dump, { force: true });
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
