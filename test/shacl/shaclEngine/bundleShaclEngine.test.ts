import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShapes } from '../../../src/shacl/loadShapes.js';
import { loadSparqlPlugin } from '../../../src/shacl/shaclEngine/loadSparqlPlugin.js';
import { RecordDataset } from '../../../src/shacl/shaclEngine/RecordDataset.js';
import * as unbundled from '../../../src/shacl/shaclEngine/shaclEngine.js';
import { SHAPE_CASES, caseQuads, fixtureQuads } from '../shapeCases.js';

const ROOT = new URL('../../../', import.meta.url);
const factory = DataFactory as unknown as RDF.DataFactory;

// scripts/bundleShaclEngine.mjs (run by `npm run build` after tsc) into a folder outside the
// project, where no node_modules can be found: the bundle must stand on its own, and the SPARQL
// plugin fail as it does when Comunica is not installed.
let dist: string;
let bundled: typeof unbundled;
let output: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'bundle-shacl-engine-'));
  mkdirSync(join(dist, 'shacl/shaclEngine'), { recursive: true });
  writeFileSync(join(dist, 'shacl/shaclEngine/shaclEngine.d.ts'), '// tsc output\n');
  writeFileSync(join(dist, 'shacl/shaclEngine/shaclEngine.js.map'), '{}');
  const run = await promisify(execFile)(process.execPath, ['scripts/bundleShaclEngine.mjs', dist], { cwd: ROOT });
  output = run.stdout;
  bundled = (await import(pathToFileURL(join(dist, 'shacl/shaclEngine/shaclEngine.js')).href)) as typeof unbundled;
}, 60_000);

afterAll(() => rmSync(dist, { recursive: true, force: true }));

function line(r: unbundled.EngineResult): string {
  const path =
    r.path
      ?.map((s) => `${s.start === 'object' ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`)
      .join('/') ?? '-';
  return [
    r.focusNode.term?.value,
    r.shape.ptr.term.value,
    path,
    r.severity.value,
    r.constraintComponent.value,
    r.value?.term?.value ?? '-',
    r.message.map((m) => m.value).join(' '),
  ].join(' ');
}

function validatorOf(engine: typeof unbundled, shapes: Store): unbundled.Validator {
  const validations: [RDF.Term, unbundled.CompileValidation][] = [
    [DataFactory.namedNode('http://www.w3.org/ns/shacl#datatype'), engine.compileDatatype],
  ];
  return new engine.Validator(new Store(shapes.getQuads(null, null, null, null)), { factory, validations });
}

async function results(validator: unbundled.Validator, quads: RDF.Quad[]): Promise<string[]> {
  const report = await validator.validate({ dataset: new RecordDataset(quads) });
  return report.results.map(line).sort();
}

/** Runs `code` (an ES module) in a Node process of its own in `cwd`: no test runner resolves its imports. */
async function inNode(code: string, cwd: string): Promise<string> {
  const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd });
  return run.stdout;
}

describe('bundleShaclEngine', () => {
  it('writes the engine as one module and a chunk for the SPARQL plugin, with the licences of what it holds', () => {
    expect(output).toMatch(/shaclEngine\.js and \d+ chunk\(s\), \d+ packages/);
    const vendor = readdirSync(join(dist, 'shacl/shaclEngine/vendor'));
    expect(vendor.filter((f) => /^sparql-.*\.js$/.test(f))).toHaveLength(1);
    const licences = readFileSync(join(dist, 'shacl/shaclEngine/vendor/LICENSES.md'), 'utf8');
    for (const name of ['shacl-engine', 'grapoi', '@rdfjs/term-map', 'rdf-validation'])
      expect(licences).toContain(`## ${name} `);
    expect(licences).not.toContain('@comunica');
    // tsc's source map of the replaced module is gone; its declarations stay.
    expect(readdirSync(join(dist, 'shacl/shaclEngine')).sort()).toEqual([
      'shaclEngine.d.ts',
      'shaclEngine.js',
      'vendor',
    ]);
  });

  it('imports nothing but Node built-ins, and Comunica only in the SPARQL chunk', () => {
    const files = [
      'shaclEngine.js',
      ...readdirSync(join(dist, 'shacl/shaclEngine/vendor'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => `vendor/${f}`),
    ];
    for (const file of files) {
      const text = readFileSync(join(dist, 'shacl/shaclEngine', file), 'utf8');
      const specifiers = [...text.matchAll(/(?:^import[^'"]*|^\} from |import\()["']([^"']+)["']/gm)].map((m) => m[1]!);
      const packages = specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
      expect(packages, file).toEqual(
        file.startsWith('vendor/sparql-')
          ? ['@comunica/query-sparql-rdfjs-lite', '@comunica/utils-bindings-factory']
          : [],
      );
    }
  });

  it('validates as shacl-engine does unbundled, on every shape case and fixture', async () => {
    const shapes = (await loadShapes()).dataset;
    const [fromBundle, fromPackage] = [validatorOf(bundled, shapes), validatorOf(unbundled, shapes)];
    const inputs = [
      fixtureQuads('full-records.ttl'),
      fixtureQuads('broken-records.ttl'),
      ...SHAPE_CASES.map(caseQuads),
    ];
    let withResults = 0;
    for (const quads of inputs) {
      const got = await results(fromBundle, quads);
      expect(got).toEqual(await results(fromPackage, quads));
      if (got.length > 0) withResults++;
    }
    expect(withResults).toBeGreaterThan(SHAPE_CASES.length / 2);
  }, 60_000);

  it('loads in Node with no node_modules to be found, and builds a validator', async () => {
    const out = await inNode(
      `const { Validator } = await import('./shacl/shaclEngine/shaclEngine.js');
       const quads = new Set();
       const dataset = { size: 0, add() {}, delete() {}, has: () => false, match: () => quads, [Symbol.iterator]: () => quads[Symbol.iterator]() };
       const v = new Validator(dataset, { factory: {} });
       console.log(typeof v.validate, typeof v.shapesPtr);`,
      dist,
    );
    expect(out.trim()).toBe('function object');
  });

  it('without Comunica installed, the SPARQL plugin is refused with a usage error naming what to install', async () => {
    // What Node itself says when the plugin's chunk is imported with no Comunica to be found...
    const out = await inNode(
      `const { importSparqlPlugin } = await import('./shacl/shaclEngine/shaclEngine.js');
       await importSparqlPlugin().then(() => console.log('{}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })));`,
      dist,
    );
    const failure = JSON.parse(out) as { code?: string; message?: string };
    expect(failure.code).toBe('ERR_MODULE_NOT_FOUND');
    expect(failure.message).toContain("'@comunica/query-sparql-rdfjs-lite'");
    // ...becomes the usage error.
    const err = await loadSparqlPlugin('a test', () =>
      Promise.reject(Object.assign(new Error(failure.message), { code: failure.code })),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'usage' });
    expect((err as Error).message).toContain(
      'npm install @comunica/query-sparql-rdfjs-lite@^5.2.3 @comunica/utils-bindings-factory@^5.2.3',
    );
  });
});
