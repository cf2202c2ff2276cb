import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory } from 'n3';
import { describe, expect, it, vi } from 'vitest';
import { ToolkitError } from '../../../src/errors.js';
import { SPARQL_ENGINE_PACKAGES, loadSparqlPlugin } from '../../../src/shacl/shaclEngine/loadSparqlPlugin.js';
import type { SparqlPlugin } from '../../../src/shacl/shaclEngine/shaclEngine.js';

/** What Node says when an ES module imports a package that is not installed. */
function notFound(specifier: string): Error {
  return Object.assign(
    new Error(
      `Cannot find package '${specifier}' imported from /app/node_modules/scholarly-rdf/dist/shacl/shaclEngine/vendor/sparql-X.js`,
    ),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );
}

/** `on`: the plugin's import fails as it does without Comunica installed (else the real import). */
const missing = vi.hoisted(() => ({ on: false }));
vi.mock('../../../src/shacl/shaclEngine/shaclEngine.js', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../../src/shacl/shaclEngine/shaclEngine.js')>();
  return {
    ...engine,
    importSparqlPlugin: (): Promise<SparqlPlugin> =>
      missing.on ? Promise.reject(notFound('@comunica/query-sparql-rdfjs-lite')) : engine.importSparqlPlugin(),
  };
});

describe('loadSparqlPlugin', () => {
  it("gives shacl-engine's SPARQL plugin when the SPARQL engine is installed", async () => {
    const plugin = await loadSparqlPlugin('a test');
    expect([...plugin.validations.keys()].map((k) => k.value)).toEqual(['http://www.w3.org/ns/shacl#sparql']);
  });

  it('without Comunica: a usage error that says what needs it and what to install', async () => {
    const load = () => Promise.reject(notFound('@comunica/query-sparql-rdfjs-lite'));
    const err = await loadSparqlPlugin('the shapes need it', load).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    expect(err).toMatchObject({ code: 'usage', details: { install: [...SPARQL_ENGINE_PACKAGES] } });
    expect((err as Error).message).toBe(
      "the shapes need it: that engine (shacl-engine's SPARQL plugin) needs Comunica, an optional peer dependency that is not installed; " +
        'install it next to scholarly-rdf: npm install @comunica/query-sparql-rdfjs-lite@^5.2.3 @comunica/utils-bindings-factory@^5.2.3',
    );
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  it('passes on any other failure as it is', async () => {
    const other = notFound('some-other-package');
    await expect(loadSparqlPlugin('x', () => Promise.reject(other))).rejects.toBe(other);
    const broken = new TypeError('broken plugin');
    await expect(loadSparqlPlugin('x', () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('names the peer dependencies the package declares, in the ranges it declares', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      dependencies: Record<string, string>;
    };
    expect(SPARQL_ENGINE_PACKAGES.map((p) => p.replace(/(.)@.*/, '$1'))).toEqual(Object.keys(pkg.peerDependencies));
    for (const spec of SPARQL_ENGINE_PACKAGES) {
      const name = spec.replace(/(.)@.*/, '$1');
      expect(`${name}@${pkg.peerDependencies[name]}`).toBe(spec);
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true);
    }
    expect(Object.keys(pkg.dependencies).filter((d) => d.startsWith('@comunica/') || d === 'shacl-engine')).toEqual([]);
  });
});

describe('RecordValidator without the SPARQL engine installed', () => {
  it('validates with the shipped shapes (their SPARQL constraints run natively)', async () => {
    missing.on = true;
    try {
      const { RecordValidator } = await import('../../../src/shacl/RecordValidator.js');
      const validator = await RecordValidator.create();
      const { namedNode, quad } = DataFactory;
      const person = namedNode('https://orcid.org/0000-0002-5308-6431');
      const outcome = await validator.validateRecord([
        quad(
          person,
          namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
          namedNode('http://schema.org/Person'),
        ),
      ]);
      expect(outcome.results.map((r) => r.message).join('\n')).toContain('has a wrong check character');
    } finally {
      missing.on = false;
    }
  });

  it('refuses shapes with SPARQL constraints it has no native code for, naming them and what to install', async () => {
    missing.on = true;
    const dir = mkdtempSync(join(tmpdir(), 'sparql-plugin-'));
    try {
      writeFileSync(
        join(dir, 'shapes.ttl'),
        `@prefix sh: <http://www.w3.org/ns/shacl#> .
         <urn:x:Short> a sh:NodeShape ; sh:targetSubjectsOf <http://schema.org/name> ;
           sh:sparql <urn:x:ShortTitle> , [ sh:select "SELECT $this WHERE { $this ?p ?o }" ] .
         <urn:x:ShortTitle> sh:select "SELECT $this WHERE { $this ?p ?o }" .`,
      );
      const { RecordValidator } = await import('../../../src/shacl/RecordValidator.js');
      const err = await RecordValidator.create({ shapesDir: dir }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'usage' });
      expect((err as Error).message).toMatch(
        /^the shapes hold 2 SPARQL constraint\(s\) with no native implementation \((<urn:x:ShortTitle>, \[\]|\[\], <urn:x:ShortTitle>)\), which only the SPARQL engine runs: that engine .* npm install @comunica\//,
      );
    } finally {
      missing.on = false;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses `sparql: 'engine'` with a usage error naming what to install", async () => {
    missing.on = true;
    try {
      const { RecordValidator } = await import('../../../src/shacl/RecordValidator.js');
      const err = await RecordValidator.create({ sparql: 'engine' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'usage' });
      expect((err as Error).message).toMatch(
        /^`sparql: 'engine'` runs every SPARQL constraint of the shapes through the SPARQL engine: .* npm install @comunica\//,
      );
    } finally {
      missing.on = false;
    }
  });
});
