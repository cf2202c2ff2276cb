#!/usr/bin/env node
// Part of `npm run build`, after tsc: replaces DIST/shacl/shaclEngine/shaclEngine.js (tsc's output of
// src/shacl/shaclEngine/shaclEngine.ts, the one module that imports shacl-engine) with a bundle of it holding
// shacl-engine and its dependencies, so that shacl-engine is no dependency of the package and a
// default install does not bring Comunica (about 240 packages, 87 MB).
//
// shacl-engine's SPARQL plugin (`shacl-engine/sparql.js`, imported on demand) becomes a chunk of
// its own in DIST/shacl/shaclEngine/vendor/ that imports Comunica (`@comunica/*`, optional peer dependencies)
// from the installation; nothing else is external but Node's built-in modules. The licences of the
// bundled packages are written to DIST/shacl/shaclEngine/vendor/LICENSES.md.
//
// Fails (exit 1) if the bundle would hold another module of the toolkit (a second copy of it), if
// any file of the bundle imports a package other than Comunica, or if the entry loads Comunica
// before the plugin is asked for.
//
// Usage: node scripts/bundleShaclEngine.mjs [DIST]   (default: dist)
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.argv[2] ?? join(ROOT, 'dist'));
const ENTRY = join(ROOT, 'src/shacl/shaclEngine/shaclEngine.ts');
const OUT_DIR = join(DIST, 'shacl/shaclEngine');
const VENDOR = join(OUT_DIR, 'vendor');
const EXTERNAL = ['@comunica/*'];

function fail(message) {
  console.error(`bundleShaclEngine: ${message}`);
  process.exit(1);
}

if (!existsSync(join(OUT_DIR, 'shaclEngine.d.ts')))
  fail(`${relative(ROOT, OUT_DIR)}/shaclEngine.d.ts is missing: run tsc first`);
rmSync(VENDOR, { recursive: true, force: true });
// tsc's source map of the module the bundle replaces would point at the wrong lines.
rmSync(join(OUT_DIR, 'shaclEngine.js.map'), { force: true });

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { shaclEngine: ENTRY },
  outdir: OUT_DIR,
  chunkNames: 'vendor/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // Some bundled packages are CommonJS and require Node's built-in modules.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const inputs = Object.keys(result.metafile.inputs);
const own = inputs.filter((p) => !p.includes('node_modules/'));
if (own.length !== 1 || resolve(ROOT, own[0]) !== ENTRY)
  fail(`the bundle would hold modules of the toolkit besides the entry: ${own.join(', ')}`);

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const outputs = result.metafile.outputs;
for (const [file, output] of Object.entries(outputs)) {
  for (const imp of output.imports) {
    if (!imp.external || builtins.has(imp.path)) continue;
    if (!imp.path.startsWith('@comunica/')) fail(`${file} imports ${imp.path}, which is no dependency of the package`);
  }
}
// Comunica only behind the dynamic import: the entry and the chunks it imports statically never load it.
const entryFile = Object.keys(outputs).find((f) => outputs[f].entryPoint);
const seen = new Set();
const walk = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  for (const imp of outputs[file].imports) {
    if (imp.kind !== 'import-statement') continue;
    if (imp.external && imp.path.startsWith('@comunica/'))
      fail(`${file} loads ${imp.path} as soon as the engine is imported`);
    if (!imp.external) walk(imp.path);
  }
};
walk(entryFile);

// The licences of the bundled packages.
const packages = new Map();
for (const input of inputs) {
  const m = /^(.*node_modules\/(@[^/]+\/[^/]+|[^/]+))\//.exec(input);
  if (m) packages.set(m[2], resolve(ROOT, m[1]));
}
const sections = [...packages]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, dir]) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'license.md', 'LICENCE']
      .map((f) => join(dir, f))
      .find((f) => existsSync(f));
    const text = file ? readFileSync(file, 'utf8').trim() : `${pkg.license} (no licence file in the package)`;
    return `## ${name} ${pkg.version} (${pkg.license})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
writeFileSync(
  join(VENDOR, 'LICENSES.md'),
  `# Packages bundled into shaclEngine.js and its chunks\n\nBuilt by scripts/bundleShaclEngine.mjs from the packages below, unchanged.\n\n${sections.join('\n')}`,
);

const size = Object.values(outputs).reduce((n, o) => n + o.bytes, 0);
console.log(
  `bundleShaclEngine: ${relative(process.cwd(), OUT_DIR) || '.'}/shaclEngine.js and ${Object.keys(outputs).length - 1} chunk(s), ${packages.size} packages, ${(size / 1024).toFixed(0)} KiB`,
);
