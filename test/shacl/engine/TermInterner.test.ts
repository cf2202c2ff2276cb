import { DataFactory, Parser } from 'n3';
import { DataFactory as RdfDataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { TermInterner, termKey } from '../../../src/shacl/engine/TermInterner.js';

const n3 = DataFactory;
const other = new RdfDataFactory();

describe('TermInterner', () => {
  it("gives the same object for equal terms, and the parent's object to a child", () => {
    const shapes = new TermInterner();
    const p = shapes.term(n3.namedNode('http://schema.org/name'));
    const record = new TermInterner(shapes);
    expect(record.term(n3.namedNode('http://schema.org/name'))).toBe(p);
  });

  it('keeps terms of another data factory equal to those of n3 (JSON-LD and RDF/XML inputs)', () => {
    const shapes = new TermInterner();
    const a = shapes.term(n3.literal('2020-01-02', n3.namedNode('http://www.w3.org/2001/XMLSchema#date')));
    const b = new TermInterner(shapes).term(
      other.literal('2020-01-02', other.namedNode('http://www.w3.org/2001/XMLSchema#date')),
    );
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
    const q2 = interner.quad(
      other.quad(other.namedNode(iri), other.namedNode('http://schema.org/name'), other.literal('T')),
    );
    expect(q2.subject).toBe(q1.subject);
    expect(q2.predicate).toBe(q1.predicate);
    expect(q2.object).toBe(q1.object);
  });

  it('copies literal fields faithfully', () => {
    const t = new TermInterner().term(n3.literal('Titel', 'de'));
    expect([t.termType, t.value, t.language, t.datatype.value]).toEqual([
      'Literal',
      'Titel',
      'de',
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString',
    ]);
  });

  it("makes, as a parser's data factory, the very objects it interns, equal to n3's own quads", () => {
    const text = [
      '<https://doi.org/10.5555/x> <http://schema.org/name> "Title"@en .',
      '<https://doi.org/10.5555/x> <http://schema.org/alternateName> "Titel"@de-CH .',
      '<https://doi.org/10.5555/x> <http://schema.org/datePublished> "2020-01-02"^^<http://www.w3.org/2001/XMLSchema#date> .',
      '<https://doi.org/10.5555/x> <http://schema.org/author> _:a1 .',
      '_:a1 <http://schema.org/name> "Smith, \\"Jo\\"\\u00e9" .',
      '_:a1 <http://schema.org/name> "Smith, \\"Jo\\"\\u00e9" <urn:g> .',
      '',
    ].join('\n');
    const shapes = new TermInterner();
    const name = shapes.term(n3.namedNode('http://schema.org/name'));
    const record = new TermInterner(shapes);
    const made = new Parser({ format: 'application/n-quads', blankNodePrefix: '', factory: record.factory() }).parse(
      text,
    );
    const plain = new Parser({ format: 'application/n-quads', blankNodePrefix: '' }).parse(text);
    expect(made.length).toBe(plain.length);
    made.forEach((q, i) => expect(q.equals(plain[i]!)).toBe(true));
    // The shapes' objects, and one object per term across quads.
    expect(made[0]!.predicate).toBe(name);
    expect(made[4]!.subject).toBe(made[3]!.object);
    expect(made[5]!.object).toBe(made[4]!.object);
    expect((made[1]!.object as { language: string }).language).toBe('de-ch'); // as n3's factory writes it
    for (const q of made) for (const t of [q.subject, q.predicate, q.object]) expect(record.term(t)).toBe(t);
    expect(made[2]!.object).toMatchObject({
      value: '2020-01-02',
      language: '',
      datatype: { value: 'http://www.w3.org/2001/XMLSchema#date' },
    });
    expect(made[4]!.object.value).toBe('Smith, "Jo"é');
    expect(made[5]!.graph.value).toBe('urn:g');
    // A blank node without a label is a new node, never one of the input's labels.
    const fresh = record.factory().blankNode();
    expect(fresh.equals(made[3]!.object)).toBe(false);
    expect(record.factory().blankNode().equals(fresh)).toBe(false);
  });

  it("keeps literals of one lexical form apart by language and datatype, and finds the parent's", () => {
    const shapes = new TermInterner();
    const plain = shapes.term(n3.literal('2020'));
    const record = new TermInterner(shapes);
    const f = record.factory();
    const year = f.literal('2020', f.namedNode('http://www.w3.org/2001/XMLSchema#gYear'));
    const tagged = f.literal('2020', 'en');
    expect(f.literal('2020')).toBe(plain);
    expect(record.term(n3.literal('2020', 'EN'))).toBe(tagged);
    expect(record.term(n3.literal('2020', n3.namedNode('http://www.w3.org/2001/XMLSchema#gYear')))).toBe(year);
    expect(new Set([plain, year, tagged]).size).toBe(3);
    expect(year.equals(plain) || tagged.equals(plain) || tagged.equals(year)).toBe(false);
    // The key of an interned literal is termKey's key of an equal term of any factory.
    expect(termKey(year)).toBe(
      termKey(other.literal('2020', other.namedNode('http://www.w3.org/2001/XMLSchema#gYear'))),
    );
    expect(termKey(tagged)).toBe(termKey(n3.literal('2020', 'en')));
  });
});
