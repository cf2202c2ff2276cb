import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
// Static imports and re-exports that load a module (not `import type`); dynamic `import()` is left out on purpose.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The modules (files of src/, relative, and packages) that loading `entry` loads before any code of it runs. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    const key = relative(SRC, file);
    if (seen.has(key)) return;
    seen.add(key);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      } else if (!spec.startsWith('node:')) {
        seen.add(`package:${spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]}`);
      }
    }
  };
  visit(resolve(SRC, entry));
  return seen;
}

describe('what the CLI loads before it runs a command', () => {
  const loaded = staticClosure('cli/main.ts');

  it('finds the commands (the walk works)', () => {
    expect(loaded).toContain('cli/commands/convert.ts');
    expect(loaded).toContain('package:commander');
  });

  it('loads no task, server, store or SHACL engine until a command asks for it (every command starts fast)', () => {
    // Allowed: where the shipped shapes are (shacl/shapesFiles.ts, for refusing to overwrite them) and small option tables.
    const heavy = [...loaded].filter((m) =>
      /^(tasks\/(?!refuseOverwritingInputs)|server\/(?!ServeOptions)|store\/(?!storeEndpoints)|shacl\/(?!shapesFiles))/.test(
        m,
      ),
    );
    expect(heavy).toEqual([]);
  });

  it('loads undici only for a proxy, and the JSON-LD and RDF/XML parsers and graph isomorphism only when used', () => {
    for (const pkg of [
      'undici',
      'jsonld-streaming-parser',
      'rdfxml-streaming-parser',
      'rdf-isomorphic',
      'shacl-engine',
    ])
      expect(loaded).not.toContain(`package:${pkg}`);
  });

  it('converts records without loading SHACL or the parsers of RDF/XML and JSON-LD', () => {
    const convert = staticClosure('tasks/convertFiles.ts');
    expect([...convert].filter((m) => m.startsWith('shacl/') && m !== 'shacl/shapesFiles.ts')).toEqual([]);
    for (const pkg of ['jsonld-streaming-parser', 'rdfxml-streaming-parser', 'undici'])
      expect(convert).not.toContain(`package:${pkg}`);
  });

  it('converts records in workers without loading n3 or the mapping in this thread (what its main thread would load for nothing)', () => {
    const convert = staticClosure('cli/main.ts');
    for (const m of staticClosure('tasks/convertFiles.ts')) convert.add(m);
    expect(convert).not.toContain('package:n3');
    expect([...convert].filter((m) => /^(pipeline\/(mapItem|RecordSink)|mapping\/mapRecord)\.ts$/.test(m))).toEqual([]);
  });
});
