// Serialisation benchmark: records/s, triples/s and peak RSS per format, beside a naive
// string-concatenation N-Triples writer (the reference) timed on the same groups in the same process.
// Usage: npm run bench -- serialize            (100,000 records, then 400,000 for memory growth)
//        node bench/serialize.bench.mjs [--counts 100000,400000] [--formats turtle,jsonld] [--sink file|null]
// Runs against dist/ (npm run build). Each format runs in its own child process, so its peak RSS is its own.
import { spawn } from 'node:child_process';
import { createWriteStream, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => pathToFileURL(join(ROOT, 'dist', p)).href;
const CHUNK = 100; // records generated (untimed) before each timed serialisation slice
const SEED = 42;

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

// ---------------------------------------------------------------- record source

/** The real pipeline (sample generator -> normaliser -> mapper) when built, else a synthetic generator. */
async function recordSource() {
  try {
    const { generateRecords } = await import(dist('sample/generateRecords.js'));
    const { normalizeRecord } = await import(dist('record/normalizeRecord.js'));
    const { mapRecord } = await import(dist('mapping/mapRecord.js'));
    return {
      name: 'real pipeline: generateRecords -> normalizeRecord -> mapRecord',
      *groups(count) {
        let offset = 0;
        while (offset < count) {
          const n = Math.min(CHUNK, count - offset);
          const chunk = [];
          for (const raw of generateRecords(n, SEED, { offset })) {
            try {
              chunk.push(mapRecord(normalizeRecord(raw)).quads);
            } catch {
              chunk.push([]); // a record the mapper rejects: counted, nothing written
            }
          }
          offset += n;
          yield chunk;
        }
      },
    };
  } catch (error) {
    const { DataFactory } = await import('n3');
    return {
      name: `synthetic record-like groups (pipeline not built: ${error.message.split('\n')[0]})`,
      groups: (count) => syntheticGroups(DataFactory, count),
    };
  }
}

/** ~25 quads per record with realistic strings, deterministic. */
function* syntheticGroups(f, count) {
  const S = 'http://schema.org/';
  const B = 'http://purl.org/ontology/bibo/';
  const X = 'http://www.w3.org/2001/XMLSchema#';
  const R = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
  const nn = (v) => f.namedNode(v);
  let x = SEED;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = [
    'catalysis',
    'protein',
    'folding',
    'neural',
    'networks',
    'für',
    'Übersicht',
    'quantum',
    'dynamics',
    'sediment',
    'climate',
    'l’analyse',
    'données',
  ];
  const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  for (let offset = 0; offset < count; offset += CHUNK) {
    const chunk = [];
    for (let i = offset; i < Math.min(count, offset + CHUNK); i++) {
      const doi = `10.1007/s${10000 + (i % 9000)}-0${i}-x`;
      const w = nn(`https://doi.org/${doi}`);
      const m = (l) => nn(`https://w3id.org/scholarly-rdf/doi/${doi}#${l}`);
      const q = [
        [w, nn(`${R}type`), nn(`${S}ScholarlyArticle`)],
        [w, nn(`${R}type`), nn(`${B}AcademicArticle`)],
        [w, nn(`${S}name`), f.literal(`${text(8)} "quoted"`, 'en')],
        [w, nn(`${S}abstract`), f.literal(text(60), 'en')],
        [w, nn(`${B}doi`), f.literal(doi)],
        [w, nn(`${S}datePublished`), f.literal('2021-03-04', nn(`${X}date`))],
        [w, nn(`${S}isAccessibleForFree`), f.literal('true', nn(`${X}boolean`))],
        [w, nn(`${S}pageStart`), f.literal('101')],
        [w, nn(`${S}pageEnd`), f.literal('118')],
        [w, nn(`${S}url`), nn(`https://link.example.com/${doi}`)],
        [w, nn(`${S}isPartOf`), m('periodical')],
        [m('periodical'), nn(`${R}type`), nn(`${S}Periodical`)],
        [m('periodical'), nn(`${S}name`), f.literal(`Journal of ${text(2)}`)],
        [m('periodical'), nn(`${S}issn`), f.literal('1234-5678')],
        [w, nn(`${S}keywords`), f.literal(text(1))],
        [w, nn(`${S}keywords`), f.literal(text(2))],
        [w, nn(`${B}authorList`), m('authors-1')],
      ];
      for (let a = 1; a <= 2; a++) {
        q.push(
          [w, nn(`${S}author`), m(`author-${a}`)],
          [m(`author-${a}`), nn(`${R}type`), nn(`${S}Person`)],
          [m(`author-${a}`), nn(`${S}name`), f.literal(`${text(1)}, ${text(1)}`)],
          [m(`authors-${a}`), nn(`${R}first`), m(`author-${a}`)],
          [m(`authors-${a}`), nn(`${R}rest`), a === 2 ? nn(`${R}nil`) : m('authors-2')],
        );
      }
      chunk.push(q.map(([s, p, o]) => f.quad(s, p, o)));
    }
    yield chunk;
  }
}

// ---------------------------------------------------------------- the reference

/** The naive N-Triples writer: string concatenation, a replace() for escapes. */
function naiveWriter() {
  const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
  const esc = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r' };
  const term = (t) =>
    t.termType === 'NamedNode'
      ? `<${t.value}>`
      : t.termType === 'BlankNode'
        ? `_:${t.value}`
        : `"${t.value.replace(/["\\\n\r]/g, (c) => esc[c])}"${t.language ? `@${t.language}` : t.datatype.value === XSD_STRING ? '' : `^^<${t.datatype.value}>`}`;
  return {
    start: () => '',
    write(quads) {
      let s = '';
      for (const q of quads) s += `${term(q.subject)} ${term(q.predicate)} ${term(q.object)} .\n`;
      return s;
    },
    end: () => '',
  };
}

// ---------------------------------------------------------------- child: one format

/** A sink that batches text into ~64 KB writes and waits on backpressure. */
function sink(kind, label) {
  const path = kind === 'file' ? join(tmpdir(), `serialize-bench-${process.pid}-${label}`) : '/dev/null';
  const out = createWriteStream(path);
  let buffer = '';
  let bytes = 0;
  return {
    path,
    async push(text) {
      buffer += text;
      if (buffer.length >= 65536) await this.flush();
    },
    async flush() {
      if (!buffer) return;
      bytes += Buffer.byteLength(buffer);
      const ok = out.write(buffer);
      buffer = '';
      if (!ok) await new Promise((r) => out.once('drain', r));
    },
    async close() {
      await this.flush();
      await new Promise((r) => out.end(r));
      const size = kind === 'file' ? statSync(path).size : bytes;
      if (kind === 'file') unlinkSync(path);
      return size;
    },
  };
}

/** A writer that writes nothing: the memory baseline of generating the records. */
function noWriter() {
  return { start: () => '', write: () => '', end: () => '' };
}

/**
 * One format in one process. mode 'speed': the reference writer runs on the same chunks, interleaved, and
 * is timed too. mode 'memory': the format alone (its peak RSS is its own plus the record pipeline's).
 */
async function child(format, count, sinkKind, mode) {
  const source = await recordSource();
  const { serializerFor } = await import(dist('serialize/serializers.js'));
  const writer =
    format === 'reference' ? naiveWriter() : format === 'none' ? noWriter() : serializerFor(format).createWriter({});
  const reference = mode === 'speed' && format !== 'reference' ? naiveWriter() : undefined;
  const out = sink(sinkKind, format);
  const refOut = reference ? sink(sinkKind, 'reference') : undefined;
  let ms = 0;
  let refMs = 0;
  let genMs = 0;
  let records = 0;
  let quads = 0;
  const rss = [];
  const heap = []; // heap still in use after a full GC: what the run retains
  let t = performance.now();
  await out.push(writer.start());
  ms += performance.now() - t;
  let g0 = performance.now();
  for (const chunk of source.groups(count)) {
    genMs += performance.now() - g0;
    // Alternate which writer goes first on a chunk, so neither always gets the warm caches.
    const formatFirst = !reference || (records / CHUNK) % 2 === 0;
    if (reference && !formatFirst) {
      t = performance.now();
      for (const group of chunk) await refOut.push(reference.write(group));
      refMs += performance.now() - t;
    }
    t = performance.now();
    for (const group of chunk) await out.push(writer.write(group));
    ms += performance.now() - t;
    if (reference && formatFirst) {
      t = performance.now();
      for (const group of chunk) await refOut.push(reference.write(group));
      refMs += performance.now() - t;
    }
    records += chunk.length;
    for (const group of chunk) quads += group.length;
    if (records % (count / 4) < CHUNK) {
      rss.push(Math.round(process.memoryUsage().rss / 1048576));
      if (globalThis.gc) {
        globalThis.gc();
        heap.push(Math.round(process.memoryUsage().heapUsed / 1048576));
      }
    }
    g0 = performance.now();
  }
  t = performance.now();
  await out.push(writer.end());
  const bytes = await out.close();
  ms += performance.now() - t;
  if (refOut) await refOut.close();
  const maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${JSON.stringify({ format, source: source.name, records, quads, ms, refMs, genMs, bytes, maxRssMB, rss, heap })}\n`,
  );
}

// ---------------------------------------------------------------- parent

function runChild(format, count, sinkKind, mode) {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--child', format, String(count), sinkKind, mode],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(text.trim().split('\n').pop()))
        : reject(new Error(`${format}: child exited ${code}`)),
    );
  });
}

const TARGETS = { ntriples: 0.5, nquads: 0.5, turtle: 0.5, jsonld: 0.25, rdfxml: 0.25 };
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const RSS_LIMIT_MB = 200;

async function main() {
  if (process.argv[2] === '--child')
    return child(process.argv[3], Number(process.argv[4]), process.argv[5], process.argv[6]);
  const counts = arg('counts', '100000,400000').split(',').map(Number);
  const formats = arg('formats', 'ntriples,nquads,turtle,jsonld,rdfxml').split(',');
  const sinkKind = arg('sink', 'null');
  console.log(
    `serialisation benchmark: node ${process.version}, sink ${sinkKind}, records generated in chunks of ${CHUNK} outside the timed sections`,
  );

  // Speed, at the first count: each format beside the reference, timed on the same chunks in the same process
  // (alternating which goes first), so the ratio holds however busy the machine is.
  const count = counts[0];
  console.log(`
speed, ${fmt(count)} records`);
  const ref = await runChild('reference', count, sinkKind, 'memory');
  console.log(`source: ${ref.source}; ${fmt(ref.quads)} quads (${(ref.quads / ref.records).toFixed(1)}/record)`);
  console.log('format      records/s   triples/s   ratio  target  ok   output MB');
  console.log(
    `reference  ${fmt(ref.records / (ref.ms / 1000)).padStart(10)} ${fmt(ref.quads / (ref.ms / 1000)).padStart(11)}      -      -       ${(ref.bytes / 1048576).toFixed(1).padStart(9)}   (alone)`,
  );
  let ok = true;
  for (const format of formats) {
    const r = await runChild(format, count, sinkKind, 'speed');
    const ratio = r.refMs / r.ms;
    ok &&= ratio >= TARGETS[format];
    console.log(
      `${format.padEnd(10)} ${fmt(r.records / (r.ms / 1000)).padStart(10)} ${fmt(r.quads / (r.ms / 1000)).padStart(11)}  ${ratio.toFixed(2).padStart(5)}  >=${TARGETS[format].toFixed(2)}  ${ratio >= TARGETS[format] ? 'yes' : 'NO '}  ${(r.bytes / 1048576).toFixed(1).padStart(9)}   (reference beside it: ${fmt(r.quads / (r.refMs / 1000))} triples/s)`,
    );
  }

  // Memory: each format alone in its own process, at every count; 'none' generates the records and writes nothing.
  console.log(`
memory (each format alone; peak RSS includes the record pipeline; heap = in use after a full GC at 25/50/75/100%)`);
  console.log(
    `format     ${counts.map((c) => `${`peak RSS MB @${fmt(c)}`.padStart(20)}  ${'heap MB'.padEnd(12)}`).join('')}`,
  );
  for (const format of ['none', 'reference', ...formats]) {
    const cells = [];
    for (const c of counts) {
      const r = await runChild(format, c, sinkKind, 'memory');
      if (format !== 'none') ok &&= r.maxRssMB < RSS_LIMIT_MB;
      cells.push(`${String(r.maxRssMB).padStart(20)}  ${r.heap.join('/').padEnd(12)}`);
    }
    console.log(`${format.padEnd(10)} ${cells.join('')}`);
  }
  console.log(`
targets (N-Triples, N-Quads, Turtle >= 0.5; JSON-LD, RDF/XML >= 0.25; peak RSS < ${RSS_LIMIT_MB} MB): ${ok ? 'all met' : 'NOT all met'}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
