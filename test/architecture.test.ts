import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import directions of src/ (docs/architecture.md draws the same table and states the rules in words).
// A room is a folder under src/ or a top-level file; each room may import itself and the rooms listed here,
// nothing else. An entry `room/file.ts` allows that one file of a room. `*` allows every room except those
// listed under `except`.
const ROOMS: Readonly<Record<string, { may: readonly string[]; except?: readonly string[] }>> = {
  errors: { may: [] },
  abort: { may: ['errors'] },
  tempFiles: { may: ['errors'] },
  // The one pool of worker threads (convert --jobs and validate --jobs) and the lookup of their scripts.
  workers: { may: ['errors'] },
  rdf: { may: ['errors'] },
  formats: { may: ['errors'] },
  // The service's contract (endpoints, page sizes per plan, query fields per plan, status bodies, key spellings):
  // what the client and the local service both follow, so it sits below both.
  contract: { may: ['errors'] },
  http: { may: ['errors', 'abort', 'contract'] },
  record: { may: ['errors', 'abort', 'formats', 'rdf', 'contract'] },
  mapping: { may: ['record', 'rdf', 'errors'] },
  serialize: { may: ['rdf', 'formats', 'errors', 'abort'] },
  parse: { may: ['rdf', 'formats', 'errors', 'abort', 'tempFiles'] },
  sample: { may: ['record', 'errors'] },
  group: { may: ['rdf', 'parse', 'formats', 'errors', 'abort', 'tempFiles'] },
  client: { may: ['http', 'record', 'contract', 'rdf', 'errors', 'abort', 'formats'] },
  store: {
    may: [
      'http',
      'parse',
      'serialize',
      'rdf',
      'formats',
      'mapping/entityIris.ts',
      'mapping/sharedTriples.ts',
      'errors',
      'abort',
      'tempFiles',
    ],
  },
  vocabulary: { may: ['http', 'parse', 'serialize', 'rdf', 'formats', 'errors', 'abort'] },
  shacl: { may: ['group', 'parse', 'rdf', 'record', 'formats', 'workers', 'errors', 'abort', 'tempFiles'] },
  server: { may: ['sample', 'vocabulary', 'record', 'contract', 'rdf', 'formats', 'errors', 'abort'] },
  pipeline: { may: ['record', 'mapping', 'serialize', 'rdf', 'formats', 'workers', 'errors', 'abort'] },
  // Where records go (the sink, after the pipeline): files and shards, their manifest, checkpoints, the lock,
  // atomic writes, opening outputs, convert's targets.
  output: {
    may: [
      'serialize',
      'mapping/sharedTriples.ts',
      'pipeline/Utf8Builder.ts',
      'formats',
      'errors',
      'abort',
      'tempFiles',
    ],
  },
  export: {
    may: [
      'output',
      'pipeline',
      'client',
      'contract',
      'store',
      'serialize',
      'mapping',
      'record',
      'parse',
      'rdf',
      'formats',
      'http',
      'errors',
      'abort',
      'tempFiles',
    ],
  },
  // The task layer (one library function per user job): everything but the CLI and the entry point.
  tasks: { may: ['*'], except: ['cli', 'index'] },
  cli: { may: ['*'], except: ['index'] },
  index: { may: ['*'], except: ['cli'] },
};

// Arrows that break the table today from files other engineers are rewriting (issue 18); tolerated until they
// land, each as `from -> to` (paths under src/). An entry that no longer occurs fails the test: delete it.
const KNOWN_PENDING: readonly string[] = [];

/** One import: the importing file and the imported file, both relative to src/ (`shacl/loadShapes.ts`). */
interface Arrow {
  from: string;
  to: string;
}

/** The room of a file under src/: its first folder, or the file's name without `.ts` at the top level. */
function roomOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file.replace(/\.ts$/, '') : file.slice(0, slash);
}

/** Whether the table lets `from` import `to`. */
function allowed(from: string, to: string, rooms = ROOMS): boolean {
  const source = roomOf(from);
  const target = roomOf(to);
  if (source === target) return true;
  const rule = rooms[source];
  if (!rule) return false;
  if (rule.except?.includes(target)) return false;
  return rule.may.includes('*') || rule.may.includes(target) || rule.may.includes(to);
}

/** `room/file -> room/file (not allowed)` for each arrow outside the table (unknown rooms are outside it too). */
function forbiddenArrows(arrows: readonly Arrow[], rooms = ROOMS): string[] {
  const lines = new Set<string>();
  for (const { from, to } of arrows) if (!allowed(from, to, rooms)) lines.add(`${from} -> ${to} (not allowed)`);
  return [...lines].sort();
}

/** The import cycles between files: each strongly connected set of files, as `a -> b -> ... -> a`. */
function fileCycles(arrows: readonly Arrow[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of arrows) {
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)!.add(to);
  }
  // Tarjan's strongly connected components, iterative so that a long chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  let counter = 0;
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; children: string[] }[] = [];
    const visit = (node: string): void => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: [...next.get(node)!].sort() });
    };
    visit(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const child = top.children.shift();
      if (child !== undefined) {
        if (!index.has(child)) visit(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || next.get(top.node)!.has(top.node)) cycles.push(describeCycle(component, next));
    }
  }
  return cycles.sort();
}

/** One cycle through a strongly connected set, from its first file in sort order: `a -> b -> a`. */
function describeCycle(component: readonly string[], next: ReadonlyMap<string, ReadonlySet<string>>): string {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from start back to start inside the component: the shortest cycle through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const child of [...next.get(node)!].sort()) {
      if (!members.has(child)) continue;
      if (child === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return `${[...path, start].join(' -> ')} (cycle${component.length > path.length ? ` among ${component.length} files` : ''})`;
      }
      if (!previous.has(child)) {
        previous.set(child, node);
        queue.push(child);
      }
    }
  }
  return `${[...component].sort().join(', ')} (cycle)`;
}

/**
 * The relative module specifiers a source text imports: static `import ... from`, `import '...'`,
 * `export ... from` and dynamic `import('...')` with a literal specifier. Comment lines are skipped.
 */
function importSpecifiers(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  const found: string[] = [];
  const patterns = [
    /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s*from\s*(['"])([^'"\n]+)\1/gm,
    /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm,
    /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[2]!);
  return found.filter((s) => s.startsWith('.'));
}

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every `.ts` file under a folder, relative to it, `/`-separated. */
function sourceFiles(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + entry.name;
    if (entry.isDirectory()) files.push(...sourceFiles(join(dir, entry.name), `${name}/`));
    else if (entry.name.endsWith('.ts')) files.push(name);
  }
  return files.sort();
}

/** The arrows of src/, and the specifiers that name no file under src/. */
function sourceArrows(): { arrows: Arrow[]; unresolved: string[] } {
  const arrows: Arrow[] = [];
  const unresolved: string[] = [];
  for (const from of sourceFiles(SRC)) {
    for (const specifier of importSpecifiers(readFileSync(join(SRC, from), 'utf8'))) {
      const target = resolve(SRC, dirname(from), specifier).replace(/\.js$/, '.ts');
      const to = relative(SRC, target).split('\\').join('/');
      if (to.startsWith('..') || !existsSync(target)) unresolved.push(`${from} -> ${specifier}`);
      else arrows.push({ from, to });
    }
  }
  return { arrows, unresolved };
}

/** The package specifiers a source text imports (`n3`, `shacl-engine/sparql.js`; not `node:` built-ins). */
function packageSpecifiers(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  const found = new Set<string>();
  for (const m of code.matchAll(
    /(?:\bfrom\s*|^[ \t]*import\s*|\bimport\s*\(\s*|declare module\s+)(['"])([^'"\n]+)\1/gm,
  )) {
    const specifier = m[2]!;
    if (!specifier.startsWith('.') && !specifier.startsWith('node:')) found.add(specifier);
  }
  return [...found];
}

/**
 * Whether `specifier` names a public module of its package: the package itself, a subpath its `exports` field
 * lists, or, for a package without `exports`, a subpath its README tells users to import.
 */
function isPublicModule(specifier: string): boolean {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = specifier.slice(name.length);
  if (!subpath) return true;
  const dir = join(SRC, '../node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown };
  if (pkg.exports && typeof pkg.exports === 'object') {
    const keys = Object.keys(pkg.exports as object);
    return keys.some(
      (k) =>
        k === `.${subpath}` ||
        (k.includes('*') &&
          new RegExp(`^${k.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('\\*', '.*')}$`).test(`.${subpath}`)),
    );
  }
  const readme = readdirSync(dir).find((f) => /^readme/i.test(f));
  return !!readme && readFileSync(join(dir, readme), 'utf8').includes(`'${specifier}'`);
}

describe("architecture: no other package's internals", () => {
  const files = sourceFiles(SRC);

  it('imports only the public modules of packages', () => {
    const imported = files.flatMap((f) => packageSpecifiers(readFileSync(join(SRC, f), 'utf8')).map((s) => ({ f, s })));
    expect(imported.some(({ s }) => s === 'shacl-engine')).toBe(true);
    expect(imported.filter(({ s }) => !isPublicModule(s)).map(({ f, s }) => `${f} imports ${s}`)).toEqual([]);
  });

  it('patches no prototype', () => {
    const patches = files.filter((f) =>
      /\.prototype\.[\w$]+\s*=[^=]|\.prototype\s*=[^=]|Object\.(defineProperty|defineProperties|assign|setPrototypeOf)\([^,)]*prototype|__proto__/.test(
        readFileSync(join(SRC, f), 'utf8'),
      ),
    );
    expect(patches).toEqual([]);
  });

  it('tells public modules from private ones (self-test)', () => {
    expect(isPublicModule('shacl-engine')).toBe(true);
    expect(isPublicModule('shacl-engine/sparql.js')).toBe(true);
    expect(isPublicModule('shacl-engine/lib/Context.js')).toBe(false);
    expect(isPublicModule('n3')).toBe(true);
  });
});

/**
 * The rooms inside `shacl/` (docs/architecture.md, "Validation in parts"): the engine of our own, the scope checks,
 * the reports and the coupling to shacl-engine, each with the rooms of `shacl/` it may import; the front doors
 * (files directly in `shacl/`) may import any, and no room imports a front door.
 */
const SHACL_ROOMS: Readonly<Record<string, readonly string[]>> = {
  engine: ['reports'],
  scope: ['engine', 'reports'],
  // An outcome carries its record's scope (`RecordScope`), and results the native constraints' messages.
  reports: ['engine', 'scope'],
  shaclEngine: ['engine', 'reports'],
};

/** The room of a file of `shacl/` (`engine`, ...; `.` for a front door), or undefined for a file outside it. */
function shaclRoomOf(file: string): string | undefined {
  if (!file.startsWith('shacl/')) return undefined;
  const rest = file.slice('shacl/'.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? '.' : rest.slice(0, slash);
}

describe('architecture: the rooms of src/shacl/', () => {
  const { arrows } = sourceArrows();
  const files = sourceFiles(SRC).filter((f) => f.startsWith('shacl/'));

  it('has the rooms of the table and the front doors, nothing else', () => {
    expect([...new Set(files.map(shaclRoomOf))].sort()).toEqual(['.', ...Object.keys(SHACL_ROOMS)].sort());
  });

  it('imports between its rooms only as the table allows, and no room imports a front door', () => {
    const wrong = arrows
      .filter(({ from, to }) => {
        const a = shaclRoomOf(from);
        const b = shaclRoomOf(to);
        if (a === undefined || b === undefined || a === b || a === '.') return false;
        return b === '.' || !SHACL_ROOMS[a]!.includes(b);
      })
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  it('imports shacl-engine in shacl/shaclEngine/ alone: its coupling in one place', () => {
    const importers = sourceFiles(SRC).filter((f) =>
      packageSpecifiers(readFileSync(join(SRC, f), 'utf8')).some(
        (s) => s === 'shacl-engine' || s.startsWith('shacl-engine/'),
      ),
    );
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !f.startsWith('shacl/shaclEngine/'))).toEqual([]);
  });
});

describe('architecture: the import directions of src/', () => {
  const { arrows, unresolved } = sourceArrows();

  it('finds the imports of the source tree', () => {
    expect(arrows.length).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it('imports only along the table (KNOWN_PENDING aside)', () => {
    const pending = new Set(KNOWN_PENDING.map((arrow) => `${arrow} (not allowed)`));
    expect(forbiddenArrows(arrows).filter((line) => !pending.has(line))).toEqual([]);
  });

  it('lists in KNOWN_PENDING only arrows that still break the table', () => {
    const forbidden = new Set(forbiddenArrows(arrows));
    expect(KNOWN_PENDING.filter((arrow) => !forbidden.has(`${arrow} (not allowed)`))).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(fileCycles(arrows)).toEqual([]);
  });

  it('gives every room of src/ a rule', () => {
    expect([...new Set(sourceFiles(SRC).map(roomOf))].filter((room) => !ROOMS[room])).toEqual([]);
  });
});

describe('architecture checker (self-test)', () => {
  it('reports each arrow that runs against the table', () => {
    const arrows: Arrow[] = [
      { from: 'record/normalizeRecord.ts', to: 'mapping/iri.ts' },
      { from: 'formats.ts', to: 'serialize/QuadSerializer.ts' },
      { from: 'parse/parseRdf.ts', to: 'vocabulary/documentLoader.ts' },
      { from: 'store/StoreHttpClient.ts', to: 'client/RetryPolicy.ts' },
      { from: 'shacl/validateStream.ts', to: 'serialize/serializers.ts' },
      { from: 'shacl/engine/nativeConstraints.ts', to: 'mapping/languageTag.ts' },
      { from: 'export/exportRdf.ts', to: 'shacl/createRecordValidator.ts' },
      { from: 'index.ts', to: 'cli/main.ts' },
      { from: 'store/GraphStoreLoader.ts', to: 'mapping/mapRecord.ts' },
      { from: 'newRoom/a.ts', to: 'errors.ts' },
      { from: 'tasks/loadDump.ts', to: 'cli/main.ts' },
      // Allowed: kept out of the report.
      { from: 'mapping/mapRecord.ts', to: 'record/types.ts' },
      { from: 'store/GraphStoreLoader.ts', to: 'mapping/entityIris.ts' },
      { from: 'cli/main.ts', to: 'shacl/loadShapes.ts' },
      { from: 'index.ts', to: 'shacl/loadShapes.ts' },
      { from: 'shacl/a.ts', to: 'shacl/b.ts' },
    ];
    expect(forbiddenArrows(arrows)).toEqual([
      'export/exportRdf.ts -> shacl/createRecordValidator.ts (not allowed)',
      'formats.ts -> serialize/QuadSerializer.ts (not allowed)',
      'index.ts -> cli/main.ts (not allowed)',
      'newRoom/a.ts -> errors.ts (not allowed)',
      'parse/parseRdf.ts -> vocabulary/documentLoader.ts (not allowed)',
      'record/normalizeRecord.ts -> mapping/iri.ts (not allowed)',
      'shacl/engine/nativeConstraints.ts -> mapping/languageTag.ts (not allowed)',
      'shacl/validateStream.ts -> serialize/serializers.ts (not allowed)',
      'store/GraphStoreLoader.ts -> mapping/mapRecord.ts (not allowed)',
      'store/StoreHttpClient.ts -> client/RetryPolicy.ts (not allowed)',
      'tasks/loadDump.ts -> cli/main.ts (not allowed)',
    ]);
  });

  it('reports each file cycle, a two-file one and a longer one, and no acyclic chain', () => {
    const arrows: Arrow[] = [
      { from: 'parse/decodeUtf8.ts', to: 'parse/parseRdf.ts' },
      { from: 'parse/parseRdf.ts', to: 'parse/decodeUtf8.ts' },
      { from: 'a/x.ts', to: 'a/y.ts' },
      { from: 'a/y.ts', to: 'a/z.ts' },
      { from: 'a/z.ts', to: 'a/x.ts' },
      { from: 'b/self.ts', to: 'b/self.ts' },
      { from: 'c/1.ts', to: 'c/2.ts' },
      { from: 'c/2.ts', to: 'c/3.ts' },
      { from: 'c/1.ts', to: 'c/3.ts' },
    ];
    expect(fileCycles(arrows)).toEqual([
      'a/x.ts -> a/y.ts -> a/z.ts -> a/x.ts (cycle)',
      'b/self.ts -> b/self.ts (cycle)',
      'parse/decodeUtf8.ts -> parse/parseRdf.ts -> parse/decodeUtf8.ts (cycle)',
    ]);
  });

  it('reads static, re-export, side-effect and dynamic imports, and skips comments and packages', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/B.js';",
      "import C, { c } from './c.js';",
      "import * as d from './d.js';",
      'import {',
      '  e,',
      '  f,',
      "} from './ef.js';",
      "export { g } from './g.js';",
      "export * from './h.js';",
      "export type { I } from './i.js';",
      "import './side.js';",
      "const j = await import('./j.js');",
      "type K = import('./k.js').K;",
      "import { n3 } from 'n3';",
      "// import { no } from './comment.js';",
      " * import { no } from './doc.js';",
      'const s = \'import x from "./string.js"\';',
    ].join('\n');
    expect(importSpecifiers(text)).toEqual([
      './a.js',
      '../b/B.js',
      './c.js',
      './d.js',
      './ef.js',
      './g.js',
      './h.js',
      './i.js',
      './side.js',
      './j.js',
      './k.js',
    ]);
  });
});
