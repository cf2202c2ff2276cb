// The timeline of one `validate --jobs N` run, summed up by thread: written by the run with SCHOLARLY_RDF_TIMELINE=<file>
// (src/shacl/validationTimeline.ts), read here. Usage: node bench/validateTimeline.mjs <file>
// (bench/validateJobs.bench.mjs --timeline runs one more --jobs N validation with it and prints this).
// For each worker, the run's wall time (the main thread's validateDump, begin to end) is split into: start-up (until
// the worker has loaded the shapes), parts (from taking a part to posting its outcomes: on a core, or ready but
// waiting for one, by /proc/thread-self/schedstat), starved (between parts, no part to take), tail (after its last
// part, until the last worker's) and end (after the last part of all: the report's end, the summary, closing).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The figures of a timeline file's events: { wallMs, main: {...}, workers: [{...}], parts: {...} }. */
export function summarizeTimeline(path) {
  const events = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const main = events.filter((e) => e.th === 0);
  const at = (ev) => main.find((e) => e.ev === ev);
  const begin = at('begin');
  const end = at('end');
  const wall = end.t - begin.t;
  const sends = new Map(main.filter((e) => e.ev === 'send').map((e) => [e.start, e]));
  const threads = [...new Set(events.filter((e) => e.th !== 0).map((e) => e.th))].sort((a, b) => a - b);
  const lastDone = Math.max(...events.filter((e) => e.ev === 'done').map((e) => e.t));
  const workers = threads.map((th) => {
    const own = events.filter((e) => e.th === th);
    const ready = own.find((e) => e.ev === 'ready');
    const boot = own.find((e) => e.ev === 'boot');
    let inParts = 0;
    let run = 0;
    let wait = 0;
    let starved = 0;
    let starvedByMain = 0;
    let gapRun = 0;
    let gapWait = 0;
    let queued = 0;
    let parts = 0;
    let previous;
    let first;
    let last;
    const bytes = [];
    for (let i = 0; i < own.length; i++) {
      const take = own[i];
      if (take.ev !== 'take') continue;
      const done = own.slice(i + 1).find((e) => e.ev === 'done');
      if (!done) continue;
      parts++;
      first ??= take;
      last = done;
      inParts += done.t - take.t;
      run += (done.run - take.run) / 1e6;
      wait += (done.wait - take.wait) / 1e6;
      if (take.end !== undefined) bytes.push(take.end - take.start);
      const sent = sends.get(take.start);
      if (sent) queued += take.t - sent.t;
      if (previous) {
        const gap = take.t - previous.t;
        gapRun += (take.run - previous.run) / 1e6;
        gapWait += (take.wait - previous.wait) / 1e6;
        starved += gap;
        // The part was sent after the worker had finished its last one: the main thread was late.
        if (sent && sent.t > previous.t) starvedByMain += Math.min(gap, sent.t - previous.t);
      }
      previous = done;
    }
    return {
      th,
      bootMs: boot.t - begin.t,
      startupMs: ready.t - begin.t,
      beforeFirstMs: first ? first.t - ready.t : 0,
      partsMs: inParts,
      onCoreMs: run,
      runQueueMs: wait,
      // Between parts: on a core (posting outcomes, taking the next part), waiting for one, or asleep (no part).
      betweenOnCoreMs: gapRun,
      betweenRunQueueMs: gapWait,
      starvedMs: Math.max(0, starved - gapRun - gapWait),
      starvedByMainMs: starvedByMain,
      tailMs: last ? lastDone - last.t : 0,
      endMs: end.t - lastDone,
      parts,
      queuedMs: parts ? queued / parts : 0,
      meanPartMs: parts ? inParts / parts : 0,
      meanPartKiB: bytes.length ? bytes.reduce((a, b) => a + b, 0) / bytes.length / 1024 : 0,
      lastPartMs: last && first ? last.t - own.filter((e) => e.ev === 'take' && e.t <= last.t).pop().t : 0,
    };
  });
  const workersAt = at('workers');
  const gots = main.filter((e) => e.ev === 'got');
  const passed = main.filter((e) => e.ev === 'passed');
  let passing = 0;
  for (const p of passed) {
    const g = gots.filter((e) => e.start === p.start).pop();
    if (g) passing += p.t - g.t;
  }
  return {
    wallMs: wall,
    main: {
      startupMs: workersAt.t - begin.t,
      onCoreMs: end.run !== undefined ? (end.run - begin.run) / 1e6 : undefined,
      runQueueMs: end.wait !== undefined ? (end.wait - begin.wait) / 1e6 : undefined,
      passingMs: passing,
      firstSendMs: main.find((e) => e.ev === 'send') ? main.find((e) => e.ev === 'send').t - begin.t : undefined,
      flushedToEndMs: at('flushed') ? end.t - at('flushed').t : undefined,
      parts: passed.length,
    },
    workers,
  };
}

/** Lines of text saying {@link summarizeTimeline}'s figures. */
export function timelineLines(s) {
  const pct = (ms) => `${((100 * ms) / s.wallMs).toFixed(1)}%`;
  const f = (ms) => (ms / 1000).toFixed(2);
  const lines = [
    `timeline: wall ${f(s.wallMs)} s; main: start-up (shapes in the workers) ${f(s.main.startupMs)} s, on a core ${f(s.main.onCoreMs ?? 0)} s, waiting for one ${f(s.main.runQueueMs ?? 0)} s, passing parts on (report writing) ${f(s.main.passingMs)} s, ${s.main.parts} parts, flush to end ${f(s.main.flushedToEndMs ?? 0)} s`,
  ];
  for (const w of s.workers) {
    const idle = w.startupMs + w.beforeFirstMs + w.starvedMs + w.tailMs + w.endMs;
    const busy = w.partsMs + w.betweenOnCoreMs + w.betweenRunQueueMs;
    lines.push(
      `  worker ${w.th}: ${w.parts} parts of ${w.meanPartKiB.toFixed(0)} KiB, ${w.meanPartMs.toFixed(1)} ms each (queued ${w.queuedMs.toFixed(1)} ms); ` +
        `busy ${pct(busy)}: in parts ${pct(w.partsMs)} (on a core ${pct(w.onCoreMs)}, waiting for a core ${pct(w.runQueueMs)}), ` +
        `between parts on a core ${pct(w.betweenOnCoreMs)}, waiting for one ${pct(w.betweenRunQueueMs)}; ` +
        `idle ${pct(idle)}: start-up ${pct(w.startupMs)} (thread up at ${f(w.bootMs)} s), before its first part ${pct(w.beforeFirstMs)}, ` +
        `no part to take ${pct(w.starvedMs)} (sent after its last part ended ${pct(w.starvedByMainMs)}), tail ${pct(w.tailMs)} (last part ${f(w.lastPartMs)} s), end ${pct(w.endMs)}`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of timelineLines(summarizeTimeline(process.argv[2]))) console.log(line);
}
