// Fuseki load benchmark (issue 38): a sharded dump of N generated records (convert --shard-records, with its
// manifest) loaded three ways, one after the other in one run, each into an empty TDB2 database:
//   A  scholarly-rdf load --bulk --store fuseki --loc DB --manifest M --tdbloader $SCHOLARLY_JENA_LIB
//      (tdb2.tdbloader, then the count by tdb2.tdbquery and the check against the manifest)
//   B  java -cp "$SCHOLARLY_JENA_LIB/*" tdb2.tdbloader --loc DB --graph=G SHARDS…   (Jena's loader by hand)
//   C  scholarly-rdf load SHARDS… --endpoint FUSEKI/tdb --graph G  (the Graph Store Protocol into a running Fuseki
//      5.6 on an empty TDB2 database, scripts/fuseki.sh; the count at the end)
// Prints each one's wall time, and CPU time of the processes (children included), triples/s, the counts, and the
// ratios A/B and C/A; every count must equal the dump's distinct triples (sort -u of the shards' lines), exit 1 if not.
// Usage: npm run bench -- fusekiLoad
//        node bench/fusekiLoad.bench.mjs [--records 100000] [--shard-records 25000] [--keep] [--require]
// Needs dist/ (npm run build), Java 17 and $SCHOLARLY_JENA_LIB (scripts/jenaJars.sh); without them it prints
// SKIPPED and exits 0 (1 with --require).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/scholarly-rdf.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const RECORDS = Number(arg('records', '100000'));
const SHARD = arg('shard-records', '25000');
const KEEP = process.argv.includes('--keep');
const LIB = process.env.SCHOLARLY_JENA_LIB;
const GRAPH = 'https://w3id.org/scholarly-rdf/graph/bench';
const SEED = 7;

if (!LIB || spawnSync('java', ['-cp', `${LIB}/*`, 'riotcmd.riot', '--version']).status !== 0) {
  console.error(
    'fusekiLoad bench SKIPPED: set SCHOLARLY_JENA_LIB to the Jena 5.6 jars (scripts/jenaJars.sh DIR) and install Java 17',
  );
  process.exit(process.argv.includes('--require') ? 1 : 0);
}

const work = mkdtempSync(join(tmpdir(), 'scholarly-fuseki-bench-'));
const fdir = join(work, 'fuseki');
let fusekiStarted = false;
process.on('exit', () => {
  if (fusekiStarted) spawnSync('bash', [join(ROOT, 'scripts/fuseki.sh'), 'stop', fdir], { stdio: 'inherit' });
  if (!KEEP) rmSync(work, { recursive: true, force: true });
});

/** Runs a command to its end, timed: wall seconds, and the CPU seconds of its children (user + system). */
function timed(what, cmd, args, env = {}) {
  const cpuBefore = childCpu();
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd: work,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) {
    console.error(`${what} failed (exit ${r.status}):\n${r.stderr.slice(-3000)}`);
    process.exit(1);
  }
  return { wall, cpu: childCpu() - cpuBefore, stdout: r.stdout, stderr: r.stderr };
}

/** CPU seconds of the finished children of this process (from /proc: cutime + cstime). */
function childCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = 100; // USER_HZ
  return (Number(fields[13]) + Number(fields[14])) / ticks;
}

async function main() {
  const { generateRecords } = await import(pathToFileURL(join(ROOT, 'dist/sample/generateRecords.js')).href);
  const jsonl = join(work, 'records.jsonl');
  const out = createWriteStream(jsonl);
  for (const record of generateRecords(RECORDS, SEED))
    if (!out.write(`${JSON.stringify(record)}\n`)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  const conv = timed('convert', process.execPath, [
    BIN,
    'convert',
    jsonl,
    '-o',
    join(work, 'dump.nt.gz'),
    '--shard-records',
    SHARD,
    '--quiet',
  ]);
  const manifest = JSON.parse(readFileSync(join(work, 'dump.manifest.json'), 'utf8'));
  const shards = manifest.shards.map((s) => join(work, s.file));
  const statements = manifest.totals.triples;
  const distinct = Number(
    spawnSync('sh', ['-c', `zcat ${shards.join(' ')} | LC_ALL=C sort -u -S 1G | wc -l`], {
      encoding: 'utf8',
    }).stdout.trim(),
  );
  console.log(
    `dump: ${RECORDS} records, ${shards.length} shards, ${statements} statements, ${distinct} distinct triples (convert ${conv.wall.toFixed(1)} s); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const a = timed('A load --bulk', process.execPath, [
    BIN,
    'load',
    '--bulk',
    '--store',
    'fuseki',
    '--loc',
    join(work, 'dbA'),
    '--graph',
    GRAPH,
    '--manifest',
    join(work, 'dump.manifest.json'),
    '--tdbloader',
    LIB,
    '--json',
    '--quiet',
  ]);
  const aCount = JSON.parse(a.stdout.trim().split('\n').pop()).count;
  const b = timed('B tdb2.tdbloader', 'java', [
    '-cp',
    `${LIB}/*`,
    'tdb2.tdbloader',
    '--loc',
    join(work, 'dbB'),
    `--graph=${GRAPH}`,
    ...shards,
  ]);
  const bCountRun = spawnSync(
    'java',
    [
      '-cp',
      `${LIB}/*`,
      'tdb2.tdbquery',
      '--loc',
      join(work, 'dbB'),
      '--results=csv',
      `SELECT (COUNT(*) AS ?n) FROM <${GRAPH}> WHERE { ?s ?p ?o }`,
    ],
    { encoding: 'utf8' },
  );
  const bCount = Number(bCountRun.stdout.trim().split('\n')[1]);

  const port = 20000 + Math.floor(Math.random() * 20000);
  timed('fuseki start', 'bash', [join(ROOT, 'scripts/fuseki.sh'), 'start', fdir], {
    FUSEKI_PORT: String(port),
    FUSEKI_HEAP: '2g',
  });
  fusekiStarted = true;
  const c = timed('C load (Graph Store Protocol)', process.execPath, [
    BIN,
    'load',
    ...shards,
    '--endpoint',
    `http://127.0.0.1:${port}/tdb`,
    '--graph',
    GRAPH,
    '--json',
    '--quiet',
    '--state',
    join(work, 'c.state.json'),
  ]);
  const cCount = JSON.parse(c.stdout.trim().split('\n').pop()).count;

  const row = (name, r, count) =>
    console.log(
      `${name}: wall ${r.wall.toFixed(1)} s, cpu ${r.cpu.toFixed(1)} s, ${Math.round(statements / r.wall)} statements/s, count ${count}${count === distinct ? ' (exact)' : ` (EXPECTED ${distinct})`}`,
    );
  row('A load --bulk --store fuseki', a, aCount);
  row('B tdb2.tdbloader by hand    ', b, bCount);
  row('C load over GSP into Fuseki ', c, cCount);
  console.log(
    `ratios: A/B wall ${(a.wall / b.wall).toFixed(2)}, cpu ${(a.cpu / b.cpu).toFixed(2)}; C/A wall ${(c.wall / a.wall).toFixed(2)} (C's cpu is the loader's only, Fuseki's is not counted); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (![aCount, bCount, cCount].every((n) => n === distinct)) process.exit(1);
}

await main();
