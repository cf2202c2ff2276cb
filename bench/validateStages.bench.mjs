// Where one validating thread's CPU goes, stage by stage, on an N-Triples dump (issue 36): read, decode, cut and
// group into records; parse, intern and drop repeated triples; the engine; the scope check of the CLI. Then a
// prototype of the front end on ids (the dump's bytes scanned straight to term ids: each term's bytes hashed into an
// open-addressed table, a string only when a term is read; records cut where a subject's DOI changes; no repeats
// dropped, no terms for the engine), to say what that design would give the front end.
// Usage: node bench/validateStages.bench.mjs [COUNT=5000] [DUMP]  (DUMP: an N-Triples dump; else COUNT generated
// records are written to a temporary one). CPU time of this thread (process.cpuUsage), µs a record.
import { createWriteStream, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const load = (p) => import(new URL(p, dist).href);
const { groupNTriplesInput } = await load('group/groupNTriplesInput.js');
const { parseSimpleNTriples } = await load('group/parseSimpleNTriples.js');
const { TermInterner } = await load('shacl/engine/TermInterner.js');
const { distinctRecord } = await load('shacl/engine/RecordIndex.js');
const { loadShapes } = await load('shacl/loadShapes.js');
const { prepareEngine } = await load('shacl/prepareEngine.js');
const { recordScopeOf } = await load('shacl/scope/recordScope.js');

const COUNT = Number(process.argv[2] ?? 5000);
let dump = process.argv[3];
const made = !dump;
if (!dump) {
  const { serializerFor } = await load('serialize/serializers.js');
  const { mapRecord } = await load('mapping/mapRecord.js');
  const { normalizeRecord } = await load('record/normalizeRecord.js');
  const { generateRecords } = await load('sample/generateRecords.js');
  dump = join(tmpdir(), `validate-stages-${process.pid}.nt`);
  const out = createWriteStream(dump);
  const writer = serializerFor('ntriples').createWriter();
  out.write(writer.start());
  for (const raw of generateRecords(COUNT, 42))
    if (!out.write(writer.write(mapRecord(normalizeRecord(raw)).quads))) await once(out, 'drain');
  out.end(writer.end());
  await once(out, 'finish');
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
async function* chunks() {
  const fd = openSync(dump, 'r');
  for (;;) {
    const b = new Uint8Array(1 << 16);
    const n = readSync(fd, b);
    if (!n) break;
    yield n < b.length ? b.subarray(0, n) : b;
  }
  closeSync(fd);
}
console.log(
  `${dump}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// Today's stages, batches of 16 records as validate makes them.
const engine = await prepareEngine(await loadShapes(), { sparql: 'native' });
const core = engine.core;
const time = { group: 0, parse: 0, engine: 0, scope: 0 };
let records = 0;
let batch = [];
const run = () => {
  const factory = new TermInterner(core.interner).factory();
  const a = cpu();
  const parsed = batch.map((g) => distinctRecord(parseSimpleNTriples(g.lineTexts ?? g.text, g.format, factory)));
  const b = cpu();
  const outcomes = parsed.map((r) => core.validateTriples(r.triples, r.pairs));
  const c = cpu();
  parsed.forEach((r, i) => recordScopeOf(r, outcomes[i], engine.rules));
  time.parse += b - a;
  time.engine += c - b;
  time.scope += cpu() - c;
  records += batch.length;
  batch = [];
};
let t = cpu();
for await (const g of groupNTriplesInput(chunks())) {
  batch.push(g);
  if (batch.length === 16) {
    time.group += cpu() - t;
    run();
    t = cpu();
  }
}
time.group += cpu() - t;
if (batch.length) run();
const us = (ms) => `${((1000 * ms) / records).toFixed(1)} µs`;
console.log(
  `today, ${records} records, CPU a record: read, decode, cut and group ${us(time.group)}; parse, intern, drop ` +
    `repeats ${us(time.parse)}; engine ${us(time.engine)}; scope check ${us(time.scope)}`,
);

// The prototype: bytes to term ids.
const CAP = 1 << 20;
const table = new Int32Array(CAP).fill(-1);
const arena = new Uint8Array(1 << 25);
const starts = new Int32Array(CAP >> 1);
const lengths = new Int32Array(CAP >> 1);
const hashes = new Int32Array(CAP >> 1);
let terms = 0;
let used = 0;
const idOf = (b, from, to) => {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i], 0x01000193);
  const length = to - from;
  for (let slot = h & (CAP - 1); ; slot = (slot + 1) & (CAP - 1)) {
    const id = table[slot];
    if (id < 0) {
      if (terms >= (CAP >> 1) - 1 || used + length > arena.length) {
        // A generation ends: the table starts again (a real one would keep the shapes' terms).
        table.fill(-1);
        terms = used = 0;
        return idOf(b, from, to);
      }
      arena.set(b.subarray(from, to), used);
      starts[terms] = used;
      lengths[terms] = length;
      hashes[terms] = h;
      used += length;
      table[slot] = terms;
      return terms++;
    }
    if (hashes[id] === h && lengths[id] === length) {
      const s = starts[id];
      let i = 0;
      while (i < length && arena[s + i] === b[from + i]) i++;
      if (i === length) return id;
    }
  }
};
const text = (id) => Buffer.from(arena.buffer, starts[id], lengths[id]).latin1Slice(0, lengths[id]);
const keys = new Map();
const OWNED = /\/doi\/(10\.[^#>]+)#|^<https:\/\/doi\.org\/(10\.[^#>]+)>/;
let quads = new Uint32Array(3 * 4096);
let n = 0;
let current;
let idRecords = 0;
t = cpu();
let carry;
for await (let chunk of chunks()) {
  if (carry) {
    const joined = new Uint8Array(carry.length + chunk.length);
    joined.set(carry);
    joined.set(chunk, carry.length);
    chunk = joined;
  }
  let start = 0;
  for (;;) {
    const end = chunk.indexOf(10, start);
    if (end < 0) {
      // The line not ended yet (the only way out: set for every chunk).
      carry = chunk.slice(start);
      break;
    }
    let j = chunk.indexOf(32, start);
    const s = idOf(chunk, start, j);
    const i = j + 1;
    j = chunk.indexOf(32, i);
    const p = idOf(chunk, i, j);
    let k = end - 1;
    while (chunk[k] !== 46) k--;
    k--;
    while (chunk[k] === 32) k--;
    const o = idOf(chunk, j + 1, k + 1);
    let key = keys.get(s);
    if (key === undefined) {
      const m = OWNED.exec(text(s));
      key = m ? (m[1] ?? m[2]) : null;
      if (keys.size > 100_000) keys.clear();
      keys.set(s, key);
    }
    if (key !== null && key !== current) {
      if (n) idRecords++;
      n = 0;
      current = key;
    }
    if (n + 3 > quads.length) {
      const grown = new Uint32Array(quads.length * 2);
      grown.set(quads);
      quads = grown;
    }
    quads[n++] = s;
    quads[n++] = p;
    quads[n++] = o;
    start = end + 1;
  }
}
if (n) idRecords++;
const idMs = cpu() - t;
console.log(
  `bytes to ids (prototype), ${idRecords} records: ${((1000 * idMs) / idRecords).toFixed(1)} µs a record, against ` +
    `${us(time.group + time.parse)} for today's front end`,
);
if (made) rmSync(dump);
