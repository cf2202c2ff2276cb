// A stand-in for Virtuoso's `isql-vt` in unit tests: answers the statements the bulk loader sends,
// keeping DB.DBA.load_list and the graphs' triples in a JSON file ($FAKE_ISQL_STATE) that every
// session (process) shares under a lock. Usage as isql: fake HOST:PORT USER SETTINGS... As the real
// isql-vt 07.20 does without a password on its command line, it first tries the user's name as the
// password (printing the refusal on stdout), then asks on stderr and reads the password from the first
// line of stdin. The password must be $FAKE_ISQL_PASSWORD; a password on the command line is refused; a file under /denied/ is outside DirsAllowed; a file
// holding "BROKEN" fails with a syntax error on that line; rdf_loader_run() waits $FAKE_ISQL_DELAY ms per file
// and stops after rdf_load_stop() (until the next ld_add); with $FAKE_ISQL_GATE, each file is being loaded until that file is removed.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [, , , user, ...settings] = process.argv;
const STATE = process.env.FAKE_ISQL_STATE;
const DELAY = Number(process.env.FAKE_ISQL_DELAY ?? 0);
const out = (line) => process.stdout.write(`${line}\n`);
const error = (state, message, statement) =>
  out(`\n*** Error ${state}: [Virtuoso Driver][Virtuoso Server]${message}\nat line 1 of Top-Level:\n${statement}`);
const badLogin = (password) =>
  out(`\n*** Error 28000: [Virtuoso Driver]CL034: Bad login (password ${password} refused)\nat line 0 of Top-Level:\n`);

if (settings.some((s) => !s.includes('='))) {
  out(`\n*** Error 28000: [Virtuoso Driver]CL034: the fake isql takes no password on its command line\n`);
  process.exit(1);
}
let loggedIn = user === process.env.FAKE_ISQL_PASSWORD;
if (!loggedIn) {
  badLogin(user);
  process.stderr.write(`Enter password for ${user} :`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function withState(change) {
  const lock = `${STATE}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await sleep(5);
    }
  }
  try {
    const state = existsSync(STATE)
      ? JSON.parse(readFileSync(STATE, 'utf8'))
      : { loadList: [], graphs: {}, statements: [] };
    const result = change(state);
    writeFileSync(STATE, JSON.stringify(state));
    return result;
  } finally {
    rmdirSync(lock);
  }
}
const strings = (sql) =>
  [...sql.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)].map((m) => m[1].replace(/''/g, "'").replace(/\\(.)/g, '$1'));
const rowOf = (r) => `R:${r.file}\t${r.state}\t${r.error ?? '-'}`;

async function loadOne() {
  const row = await withState((s) => {
    if (s.stop) return undefined;
    const next = s.loadList.find((r) => r.state === 0 && existsSync(r.file));
    if (next) next.state = 1;
    return next;
  });
  if (!row) return false;
  await sleep(DELAY);
  // $FAKE_ISQL_GATE: the file is loaded (state 1) until that file is gone.
  while (process.env.FAKE_ISQL_GATE && existsSync(process.env.FAKE_ISQL_GATE)) await sleep(10);
  const lines = readFileSync(row.file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const bad = lines.findIndex((l) => l.includes('BROKEN'));
  await withState((s) => {
    const r = s.loadList.find((x) => x.file === row.file);
    r.state = 2;
    // A file named *.lost.*: reported loaded, its triples not kept (a store that loses data).
    const kept = r.file.includes('.lost.') ? [] : bad < 0 ? lines : lines.slice(0, bad);
    s.graphs[r.graph] = [...new Set([...(s.graphs[r.graph] ?? []), ...kept])];
    if (bad >= 0) r.error = `37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line ${bad + 1}: syntax error`;
    s.statements.push(`-- loaded ${r.file}`);
  });
  return true;
}

async function answer(sql) {
  await withState((s) => s.statements.push(sql));
  const marker = /^select '(scholarly-rdf-isql-end-\d+)';$/.exec(sql);
  if (marker) return out(`${marker[1]}     `);
  if (sql === "select 'R:ok';") return out('R:ok');
  if (sql === 'select 1;' || /^(log_enable|checkpoint)/.test(sql)) return;
  if (sql.startsWith('rdf_load_stop()')) return withState((s) => void (s.stop = true));
  // The values the statement is about: its string literals but the row prefix (load_list queries: the last one).
  const values = strings(sql).filter((v) => v !== 'R:');
  const [a, b] = sql.includes('DB.DBA.load_list') ? values.slice(-1) : values;
  if (sql.includes('file_to_string_output')) {
    if (a.startsWith('/denied/'))
      return error('42000', `FA003: Access to '${a}' is denied due to access control in ini file`, sql);
    if (!existsSync(a))
      return error('42000', `FA112: Can't stat file '${a}', error (2) : No such file or directory`, sql);
    return out('R:0');
  }
  if (sql.includes('cfg_item_value')) return out('R:., /allowed');
  if (sql.startsWith('SPARQL CLEAR GRAPH')) {
    const g = /<([^>]*)>/.exec(sql)[1];
    return withState((s) => void delete s.graphs[g]);
  }
  if (sql.startsWith('SPARQL SELECT')) {
    const g = /FROM <([^>]*)>/.exec(sql)[1];
    return out(`R:${await withState((s) => (s.graphs[g] ?? []).length)}`);
  }
  if (sql.startsWith('ld_add('))
    return withState((s) => void (s.loadList.push({ file: a, graph: b, state: 0, error: null }), (s.stop = false)));
  if (sql.startsWith('delete from DB.DBA.load_list')) {
    const waitingOnly = sql.includes('ll_state = 0');
    return withState(
      (s) => void (s.loadList = s.loadList.filter((r) => r.file !== a || (waitingOnly && r.state !== 0))),
    );
  }
  if (sql.startsWith('rdf_loader_run()')) {
    while (await loadOne());
    return;
  }
  if (sql.endsWith('where ll_state = 1;'))
    return (await withState((s) => s.loadList.filter((r) => r.state === 1))).forEach((r) =>
      out(`R:${r.file}\t${r.graph}`),
    );
  if (sql.includes('ll_state = 0 and ll_graph ='))
    return (await withState((s) => s.loadList.filter((r) => r.state === 0 && r.graph === a))).forEach((r) =>
      out(`R:${r.file}`),
    );
  if (sql.includes('ll_state = 1'))
    return (await withState((s) => s.loadList.filter((r) => r.file === a && r.state === 1))).forEach((r) =>
      out(`R:${r.graph}`),
    );
  if (sql.includes('ll_state = 0 and ll_graph <>'))
    return out(`R:${await withState((s) => s.loadList.filter((r) => r.state === 0 && r.graph !== a).length)}`);
  if (sql.includes('where ll_graph ='))
    return (await withState((s) => s.loadList.filter((r) => r.graph === a))).forEach((r) => out(rowOf(r)));
  return error('37000', `SQ074: the fake isql does not know: ${sql}`, sql);
}

let chain = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!loggedIn) {
    if (line !== process.env.FAKE_ISQL_PASSWORD) {
      badLogin(line);
      process.exit(1);
    }
    loggedIn = true;
    return;
  }
  chain = chain.then(() => answer(line.trim()));
});
