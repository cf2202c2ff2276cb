import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { librarySnippets } from './docSnippets.js';
import { tempDir } from '../helpers/tempDir.js';

const ROOT = join(import.meta.dirname, '../..');
const snippets = librarySnippets();
/** Where the compiled snippets run from: inside the package, so that its name resolves to itself. */
const SNIPPETS = join(ROOT, 'test/.doc-snippets');

describe('the library snippets of README.md and docs/', () => {
  it('are there', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(10);
  });

  // One strict type-check of them all, against the source of the public API (src/index.ts) as the package name.
  it('type-check under strict, each against the public API only', () => {
    const dir = tempDir('doc-snippets-tsc-');
    const files = snippets.map((s, i) => {
      const file = join(dir, `snippet${i}.mts`);
      writeFileSync(file, `// ${s.where}\n${s.code}`);
      return file;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], strict: true, noEmit: true, skipLibCheck: true,
          types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')], paths: { 'scholarly-rdf': [join(ROOT, 'src/index.ts')] }, resolveJsonModule: true,
        },
        // The declarations of the source's untyped dependencies (shacl-engine) come along with it.
        files: [...files, join(ROOT, 'src/shacl/shaclEngine/shacl-engine.d.ts')],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    // A message names the snippet file; say which block of which page it is.
    const said = `${tsc.stdout}${tsc.stderr}`.replace(/snippet(\d+)\.mts/g, (_, i: string) => snippets[Number(i)]!.where);
    expect(said).toBe('');
    expect(tsc.status).toBe(0);
  }, 300_000);

  // Each runs as a user's module would: compiled to JavaScript next to the package, so that `import 'scholarly-rdf'`
  // is the package itself (its exports: dist/, as `npm run build` made it), in a folder of its own holding the sample.
  for (const snippet of snippets.filter((s) => s.needs.length === 0)) {
    it(`${snippet.where} runs against the sample`, async () => {
      expect(existsSync(join(ROOT, 'dist/index.js')), 'npm run build first: the snippets import the built package').toBe(true);
      const { code } = await transform(snippet.code, { loader: 'ts', format: 'esm', target: 'node20' });
      mkdirSync(SNIPPETS, { recursive: true });
      const module = join(mkdtempSync(join(SNIPPETS, 'snippet-')), 'snippet.mjs');
      writeFileSync(module, code);
      const cwd = tempDir('doc-snippet-');
      copyFileSync(join(ROOT, 'data/sample-catalogue.jsonl'), join(cwd, 'records.jsonl'));
      // No key: a snippet that would send one to the service must not run here.
      const env = { ...process.env, SCHOLARLY_API_KEY: '', SPRINGERNATURE_API_KEY: '' };
      const child = spawnSync(process.execPath, [module], { cwd, env, encoding: 'utf8', timeout: 240_000 });
      rmSync(dirname(module), { recursive: true, force: true });
      expect(child.status, `${snippet.where}:\n${child.stderr}`).toBe(0);
    }, 300_000);
  }
});
