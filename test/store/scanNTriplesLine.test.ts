import { describe, expect, it } from 'vitest';
import { LineKind, newLineScan, scanNTriplesLine } from '../../src/store/scanNTriplesLine.js';

function scan(line: string, nquads = false) {
  const buf = Buffer.from(line);
  const out = newLineScan();
  const kind = scanNTriplesLine(buf, 0, buf.length, nquads, out);
  const text = (a: number, b: number) => buf.toString('utf8', a, b);
  return {
    kind,
    out,
    subject: text(out.subjectStart, out.subjectEnd),
    object: text(out.objectStart, out.objectEnd),
    graph: out.graphAt >= 0 ? text(out.graphAt, buf.length) : undefined,
  };
}

describe('scanNTriplesLine', () => {
  it('passes plain triples, with the places of their terms', () => {
    const iri = scan('<http://ex.org/s> <http://ex.org/p> <http://ex.org/o> .');
    expect(iri.kind).toBe(LineKind.Plain);
    expect(iri.subject).toBe('http://ex.org/s');
    expect(iri.object).toBe('http://ex.org/o');
    expect(iri.out.objectIri).toBe(true);
    const literal = scan('<http://ex.org/s>\t<http://ex.org/p> "a \\"quoted\\" line\\nbreak"@en-gb .  # comment\r');
    expect(literal.kind).toBe(LineKind.Plain);
    expect(literal.object).toBe('"a \\"quoted\\" line\\nbreak"@en-gb');
    expect(scan('<http://ex.org/s> <http://ex.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .').kind).toBe(
      LineKind.Plain,
    );
    const blank = scan('_:b1 <http://ex.org/p> _:x-2 .');
    expect(blank.kind).toBe(LineKind.Plain);
    expect([blank.out.subjectBlank, blank.subject, blank.out.objectBlank, blank.object, blank.out.oddLabel]).toEqual([
      true,
      'b1',
      true,
      'x-2',
      false,
    ]);
    expect(scan('_:b_1 <http://ex.org/p> "x" .').out.oddLabel).toBe(true);
    const accents = scan('<http://ex.org/é> <http://ex.org/p> "Müller" .');
    expect([accents.kind, accents.out.nonAscii]).toEqual([LineKind.Plain, true]);
  });

  it('says which lines hold no triple', () => {
    for (const line of ['', '   ', '\t', '# a comment', '  # indented comment', '\r'])
      expect(scan(line).kind).toBe(LineKind.Empty);
  });

  it('finds the graph term of an N-Quads line (not of an N-Triples one)', () => {
    const q = scan('<http://ex.org/s> <http://ex.org/p> "o" <http://ex.org/g> .', true);
    expect(q.kind).toBe(LineKind.Plain);
    expect(q.graph).toBe(' <http://ex.org/g> .');
    expect(scan('<http://ex.org/s> <http://ex.org/p> "o" _:g .', true).kind).toBe(LineKind.Plain);
    expect(scan('<http://ex.org/s> <http://ex.org/p> "o" .', true).out.graphAt).toBe(-1);
    expect(scan('<http://ex.org/s> <http://ex.org/p> "o" <http://ex.org/g> .').kind).toBe(LineKind.Other);
  });

  it('leaves to the parser what a store might read otherwise than n3, and every error', () => {
    const others = [
      '<http://ex.org/s> <http://ex.org/p> "caf\\u00E9" .', // \u escapes: decoded by the parser
      '<http://ex.org/s\\u0041> <http://ex.org/p> "x" .',
      '<http://ex.org/s> <http://ex.org/p> "\\U0001F600" .',
      '<s> <http://ex.org/p> "x" .', // relative IRI
      '<http://ex.org/s> <http://ex.org/p> "x"@EN .', // n3 lowers the tag
      '<http://ex.org/s> <http://ex.org/p> "x"@ar--rtl .', // RDF 1.2 base direction: refused by the loader
      '<http://ex.org/s> <http://ex.org/p> "x"^^<http://www.w3.org/2001/XMLSchema#string> .', // written back as "x"
      '<http://ex.org/s> <http://ex.org/p> "tab\there" .', // a raw control
      '<http://ex.org/s> <http://ex.org/p> <<( <http://ex.org/a> <http://ex.org/b> <http://ex.org/c> )>> .',
      '<http://ex.org/s> <http://ex.org/p> _:b1.',
      '<http://ex.org/s> <http://ex.org/p> "x"',
      '<http://ex.org/s> <http://ex.org/p> "x" . trailing',
      '<http://ex.org/s> <http://ex.org/p> "unterminated .',
      '<http://ex.org/a b> <http://ex.org/p> "x" .',
      '_:b.1 <http://ex.org/p> "x" .',
      '"x" <http://ex.org/p> "x" .',
      '<http://ex.org/s> _:p "x" .',
      '<http://ex.org/s><http://ex.org/p> "x" .',
      '<http://ex.org/s> <http://ex.org/p> "x" .\r<http://ex.org/s> <http://ex.org/p> "y" .',
    ];
    for (const line of others) expect(scan(line).kind, line).toBe(LineKind.Other);
  });
});
