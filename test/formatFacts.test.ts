/**
 * The facts of the RDF formats are written once, in the table of `src/formats.ts`: this test reads every
 * string, template and regular expression literal of `src/` (with the TypeScript parser, so comments and
 * identifiers do not count) and fails on a format's media type, an extension (`.nq`, `\.ttl`), another name
 * (`'ttl'`, `'n-quads'`) or a list of formats written anywhere else, and on a chain of comparisons of a format
 * with two or more format names (`format !== 'nquads' && format !== 'jsonld'`: a capability the table
 * states). The exceptions are listed below, each with its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../src/formats.js';

const SRC = resolve(import.meta.dirname, '../src');
const TABLE = 'formats.ts';

/** `file: fact` -> why it may be written there. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  'client/ApiClient.ts: application/json': "the service's own JSON (records), not JSON-LD",
  'server/Answer.ts: application/json': "the local service answers in the service's own JSON",
  'server/jatsResponse.ts: application/xml':
    "the local service's /openaccess/jats answers in JATS XML, the service's own format, not RDF/XML",
  'mapping/mapLinks.ts: application/xml':
    "a record's links name their formats (`xml`): the service's vocabulary, mapped to a media type of the page linked",
  'parse/documentLoader.ts: application/json':
    'JSON-LD contexts are often served as plain JSON: asked for at a lower q',
  'vocabulary/acceptHeader.ts: application/json':
    'plain JSON, which some vocabulary servers send for JSON-LD, asked for at a lower q',
  'cli/options/loadOptions.ts: list of formats':
    'the syntaxes `load` writes its chunks in (`--chunk-format`): the store room writes these two',
  'vocabulary/acceptHeader.ts: list of formats':
    'the formats the vocabulary endpoint serves (spec §4.3) and their preference and q: the negotiation of terms, not facts of the formats',
};

/**
 * The code of a file without its types and comments (esbuild's transform), one statement a line as esbuild
 * prints it; strings, templates and regular expressions keep their text.
 */
function codeOf(file: string): string[] {
  const code = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', legalComments: 'none', format: 'esm' }).code;
  // esbuild keeps a few comments, each on lines of its own.
  return code.split('\n').filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line));
}

const NAMES = FORMATS.map((f) => f.format);
const COMPARED = new RegExp(`[!=]==\\s*(["'\`])(${NAMES.join('|')})\\1|(["'\`])(${NAMES.join('|')})\\3\\s*[!=]==`, 'g');
const LISTED = new RegExp(`\\[\\s*(["'])(${NAMES.join('|')})\\1\\s*,\\s*(["'])(${NAMES.join('|')})\\3`);

/** The format names a line compares a value with (`format !== 'nquads' && format !== 'jsonld'`), when it joins comparisons by `&&` or `||`. */
function comparedNames(line: string): string[] {
  if (!/&&|\|\|/.test(line)) return [];
  return [...new Set([...line.matchAll(COMPARED)].map((m) => m[2] ?? m[4]!))];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const MEDIA_TYPES = [...new Set(FORMATS.flatMap((f) => [f.mediaType, ...f.aliases]))];
const MEDIA = new RegExp(`(?<![\\w/+.-])(${MEDIA_TYPES.map(escape).join('|')})(?![\\w/+.-])`, 'gi');
const EXTENSIONS = [...new Set(FORMATS.flatMap((f) => f.extensions))];
// `.nq` or `\.nq` after anything but a letter or digit (`dump.nq.gz` is an example of a file name, not a rule).
const EXTENSION = new RegExp(`(?<![A-Za-z0-9_])\\\\?\\.(${EXTENSIONS.map(escape).join('|')})(?![A-Za-z0-9_-])`, 'g');
// `rdf` and `xml` are other names of RDF/XML, but also the `rdf:` prefix and common words of the code: left out.
// Extensions as the choices of a regular expression: `\.(ttl|nt|nq)$`.
const ALTERNATIVE = new RegExp(`(?<=[(|])(${EXTENSIONS.map(escape).join('|')})(?=[|)])`, 'g');
const OTHER_NAMES = new Set(FORMATS.flatMap((f) => f.names).filter((n) => n !== 'rdf' && n !== 'xml'));
const QUOTED = /(["'`])([^"'`\\\n]{1,12})\1/g;

/** `file: what in "code"` for each fact written outside the table, minus the exceptions. */
function factsOutsideTable(): { found: string[]; excepted: Set<string> } {
  const found: string[] = [];
  const excepted = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file);
    if (rel === TABLE) continue;
    for (const line of codeOf(file)) {
      const report = (fact: string) => {
        const key = `${rel}: ${fact}`;
        const text = line.trim();
        if (key in EXCEPTIONS) excepted.add(key);
        else found.push(`${key} in ${JSON.stringify(text.length > 140 ? `${text.slice(0, 137)}...` : text)}`);
      };
      for (const m of line.matchAll(MEDIA)) report(m[1]!.toLowerCase());
      for (const m of line.matchAll(EXTENSION)) report(`.${m[1]}`);
      if (new Set([...line.matchAll(ALTERNATIVE)].map((m) => m[1])).size >= 2)
        report('extensions in a regular expression');
      for (const m of line.matchAll(QUOTED)) if (OTHER_NAMES.has(m[2]!)) report(`the format name '${m[2]}'`);
      if (comparedNames(line).length >= 2) report('formats compared one by one');
      if (LISTED.test(line)) report('list of formats');
    }
  }
  return { found, excepted };
}

describe('the facts of the formats are in the table of src/formats.ts alone', () => {
  const { found, excepted } = factsOutsideTable();

  it('finds no media type, extension, format name, list of formats or capability outside the table', () => {
    expect(found).toEqual([]);
  });

  it('has no exception that is no longer needed', () => {
    expect(Object.keys(EXCEPTIONS).filter((k) => !excepted.has(k))).toEqual([]);
  });

  it('would find each kind of fact (the scan works)', () => {
    for (const line of ['x = "application/n-quads";', 'a = `text/turtle; q=1`;', 'p = ".nq";', 'r = /\\.trig$/;']) {
      expect([...line.matchAll(MEDIA), ...line.matchAll(EXTENSION)].length, line).toBeGreaterThan(0);
    }
    expect([...'f = "ttl";'.matchAll(QUOTED)].some((m) => OTHER_NAMES.has(m[2]!))).toBe(true);
    expect(comparedNames('if (format !== "nquads" && format !== "jsonld") throw e;')).toEqual(['nquads', 'jsonld']);
    expect([...'r = /\\.(ttl|nt|nq)$/i;'.matchAll(ALTERNATIVE)].length).toBe(3);
    expect(LISTED.test('const order = ["jsonld", "turtle"];')).toBe(true);
    expect('name = "dump.nq.gz";'.match(EXTENSION)).toBeNull();
    // esbuild keeps the literals and drops the comments and types the scan must not see.
    const code = transformSync(
      "// 'text/turtle'\nconst f: 'ntriples' | 'nquads' = 'x'; const t = 'application/trig';",
      { loader: 'ts' },
    ).code;
    expect(code).not.toMatch(/text\/turtle|ntriples/);
    expect(code).toMatch(/application\/trig/);
  });
});
