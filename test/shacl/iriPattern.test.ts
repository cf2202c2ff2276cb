import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';

const SH_PATTERN = 'http://www.w3.org/ns/shacl#pattern';

/** The IRI pattern of the shapes (the one that begins with the scheme), as the engines read it from the Turtle. */
function iriPatterns(): string[] {
  const out = new Set<string>();
  for (const file of ['work.ttl', 'nodes.ttl']) {
    const text = readFileSync(fileURLToPath(new URL(`../../shapes/${file}`, import.meta.url)), 'utf8');
    for (const q of new Parser().parse(text)) {
      if (q.predicate.value === SH_PATTERN && q.object.value.startsWith('^[A-Za-z][A-Za-z0-9+.-]*:'))
        out.add(q.object.value);
    }
  }
  return [...out];
}

describe('the IRI pattern of the shapes', () => {
  it('is one pattern, used by every shape that checks an IRI', () => {
    expect(iriPatterns()).toHaveLength(1);
  });

  const iri = new RegExp(iriPatterns()[0]!);

  it('accepts the IRIs the toolkit writes, and valid IRIs beyond them', () => {
    for (const good of [
      'https://doi.org/10.1007/s12024-015-0000-8',
      'https://w3id.org/scholarly-rdf/doi/10.1007/x#author-1',
      'https://doi.org/10.1002/(SICI)1097-4636%28199706%2935',
      'http://127.0.0.1:8080/meta/v2/json?q=doi:10.1/x&p=1',
      'http://[::1]:3030/ds',
      'https://例え.jp/パス?q=日本#frag',
      'urn:isbn:978-3-16-148410-0',
      'mailto:someone@example.org',
    ]) {
      expect(iri.test(good), good).toBe(true);
    }
  });

  it('refuses a second #, brackets outside the host, a port that is no number, control and bidi characters, bad escapes', () => {
    for (const bad of [
      'https://a.org/x#y#z',
      'https://a.org/x[1]',
      'http://host:abc/',
      'https://a.org/a\u0001b',
      'https://a.org/\u0085',
      'https://a.org/\u202Eevil',
      'https://a b.org/',
      'https://a.org/%zz',
      'no-scheme',
    ]) {
      expect(iri.test(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
