import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NS } from '../../src/rdf/namespaces.js';

// A namespace IRI is written once, in src/rdf/namespaces.ts; everything else asks it (NS, RDF_TYPE, XSD_STRING, …).
// Fails on a string, template or regexp of src/ that starts with one of them (comments are not read).
const SRC = join(import.meta.dirname, '../../src');
const HOME = join('rdf', 'namespaces.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The namespaces of NS a line of code writes (none for a comment line). */
function namespacesWritten(line: string): string[] {
  const code = line.trim();
  if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return [];
  return Object.values(NS).filter((ns) => ["'", '"', '`'].some((q) => line.includes(q + ns)));
}

describe('namespaces: written in rdf/namespaces.ts only', () => {
  it('no other file of src/ writes a namespace IRI of NS', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file);
      if (name === HOME) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => found.push(...namespacesWritten(line).map((ns) => `${name}:${i + 1}: ${ns}`)));
    }
    expect(found).toEqual([]);
  });

  it('sees a namespace written in a string, a template or a term, not in a comment', () => {
    expect(namespacesWritten(`const SH = '${NS.sh}';`)).toEqual([NS.sh]);
    expect(namespacesWritten(`  DataFactory.namedNode(\`${NS.schemaHttp}name\`),`)).toEqual([NS.schemaHttp]);
    expect(namespacesWritten(` * in \`${NS.rdf}type\``)).toEqual([]);
    expect(namespacesWritten(`const SH = NS.sh;`)).toEqual([]);
  });
});
