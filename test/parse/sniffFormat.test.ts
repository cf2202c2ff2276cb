import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffFormat } from '../../src/parse/sniffFormat.js';

const vocab = (file: string) => readFileSync(new URL(`../../vocab/${file}`, import.meta.url), 'utf8');

describe('sniffFormat', () => {
  it('recognises the four shipped files', () => {
    expect(sniffFormat(vocab('pagination.jsonld'))).toBe('jsonld');
    expect(sniffFormat(vocab('pagination.ttl'))).toBe('turtle');
    expect(sniffFormat(vocab('pagination.nt'))).toBe('ntriples');
    expect(sniffFormat(vocab('pagination.rdf'))).toBe('rdfxml');
  });

  it('tells JSON-LD arrays from Turtle blank node property lists', () => {
    expect(sniffFormat('[ {"@id": "x"} ]')).toBe('jsonld');
    expect(sniffFormat('[]')).toBe('jsonld');
    expect(sniffFormat('[ a <http://schema.org/Thing> ] .')).toBe('turtle');
    // A JSON array of arrays, strings, numbers or literals is JSON, never a Turtle property list (whose first word is a predicate).
    for (const json of ['[[[[', '[ ["x"]]', '[1, 2]', '[-1]', '[null]', '[true, false]', '["10.1/x"]'])
      expect(sniffFormat(json), json).toBe('jsonld');
    expect(sniffFormat('[ ex:p ex:o ] .')).toBe('turtle');
    expect(sniffFormat('[ nullable:p 1 ] .')).toBe('turtle');
  });

  it('recognises HTML, XHTML and RDF/XML without a declaration', () => {
    expect(sniffFormat('\n<!DOCTYPE html>\n<html lang="en">')).toBe('html');
    expect(sniffFormat('<html><head>')).toBe('html');
    expect(sniffFormat('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">')).toBe('html');
    expect(sniffFormat('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')).toBe('rdfxml');
    expect(sniffFormat('<!-- a comment -->\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')).toBe(
      'rdfxml',
    );
  });

  it('tells N-Triples, N-Quads and Turtle that starts with an IRI apart', () => {
    expect(sniffFormat('<http://a/s> <http://a/p> "x"@en .\n<http://a/s> <http://a/p> _:b1 .\n')).toBe('ntriples');
    expect(sniffFormat('<http://a/s> <http://a/p> "x" <http://a/g> .\n')).toBe('nquads');
    expect(sniffFormat('<http://a/s> <http://a/p> "x" ;\n  <http://a/q> 1 .\n')).toBe('turtle');
    expect(sniffFormat('# comment\nPREFIX s: <http://s/>\ns:a s:b s:c .')).toBe('turtle');
    expect(sniffFormat('s:a a s:C .\n')).toBe('turtle');
  });

  it('judges only complete lines of a cut sample', () => {
    expect(sniffFormat('<http://a/s> <http://a/p> "x" .\n<http://a/s> <http://a/p> "unfinis')).toBe('ntriples');
  });

  it('ignores a BOM and leading space; gives up on prose and empty input', () => {
    expect(sniffFormat('\uFEFF  {"@context": {}}')).toBe('jsonld');
    expect(sniffFormat('hello world')).toBeUndefined();
    expect(sniffFormat('   ')).toBeUndefined();
  });
});
