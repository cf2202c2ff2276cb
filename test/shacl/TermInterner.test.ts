import { DataFactory } from 'n3';
import { DataFactory as RdfDataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { TermInterner } from '../../src/shacl/TermInterner.js';

const n3 = DataFactory;
const other = new RdfDataFactory();

describe('TermInterner', () => {
  it('gives the same object for equal terms, and the parent\'s object to a child', () => {
    const shapes = new TermInterner();
    const p = shapes.term(n3.namedNode('http://schema.org/name'));
    const record = new TermInterner(shapes);
    expect(record.term(n3.namedNode('http://schema.org/name'))).toBe(p);
  });

  it('keeps terms of another data factory equal to those of n3 (JSON-LD and RDF/XML inputs)', () => {
    const shapes = new TermInterner();
    const a = shapes.term(n3.literal('2020-01-02', n3.namedNode('http://www.w3.org/2001/XMLSchema#date')));
    const b = new TermInterner(shapes).term(other.literal('2020-01-02', other.namedNode('http://www.w3.org/2001/XMLSchema#date')));
    expect(a.equals(b)).toBe(true);
    expect(b.equals(a)).toBe(true);
    expect(a.equals(shapes.term(n3.literal('2020-01-02')))).toBe(false);
    expect(shapes.term(n3.literal('x', 'en')).equals(shapes.term(other.literal('x', 'en')))).toBe(true);
    expect(shapes.term(n3.literal('x', 'en')).equals(shapes.term(other.literal('x', 'de')))).toBe(false);
  });

  it('gives one object to a term whichever data factory made it, in either order', () => {
    const interner = new TermInterner();
    const iri = 'https://doi.org/10.5555/x';
    expect(interner.term(n3.namedNode(iri))).toBe(interner.term(other.namedNode(iri)));
    expect(interner.term(other.literal('x', 'en'))).toBe(interner.term(n3.literal('x', 'en')));
    // A record read with two factories has its triples once.
    const q1 = interner.quad(n3.quad(n3.namedNode(iri), n3.namedNode('http://schema.org/name'), n3.literal('T')));
    const q2 = interner.quad(other.quad(other.namedNode(iri), other.namedNode('http://schema.org/name'), other.literal('T')));
    expect(q2.subject).toBe(q1.subject);
    expect(q2.predicate).toBe(q1.predicate);
    expect(q2.object).toBe(q1.object);
  });

  it('copies literal fields faithfully', () => {
    const t = new TermInterner().term(n3.literal('Titel', 'de'));
    expect([t.termType, t.value, t.language, t.datatype.value]).toEqual(['Literal', 'Titel', 'de', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString']);
  });
});
