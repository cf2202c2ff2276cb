import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseRecordText } from '../../src/group/RecordText.js';

describe('parseRecordText', () => {
  it('parses the lines of a record, blank nodes keeping their labels', () => {
    const quads = parseRecordText({
      format: 'ntriples',
      source: 'dump.nt',
      text: '<https://doi.org/10.1/a> <http://schema.org/author> _:p1 .\n_:p1 <http://schema.org/name> "X" .\n',
      lines: [10, 11],
    });
    expect(quads.map((q) => [q.subject.value, q.object.termType, q.object.value])).toEqual([
      ['https://doi.org/10.1/a', 'BlankNode', 'p1'],
      ['p1', 'Literal', 'X'],
    ]);
  });

  it('names the input and the input line of a syntax error', () => {
    const record = {
      format: 'ntriples' as const,
      source: 'dump.nt',
      text: '<https://doi.org/10.1/a> <http://schema.org/name> "A" .\n<https://doi.org/10.1/a> <http://schema.org/name> bad .\n',
      lines: [41, 57],
    };
    let error: unknown;
    try {
      parseRecordText(record);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).line).toBe(57);
    expect((error as ParseError).message).toBe('dump.nt:57: invalid N-Triples: Unexpected "bad"');
    expect((error as ParseError).reason).toBe('invalid N-Triples: Unexpected "bad"');
    expect((error as ParseError).code).toBe('parse');
  });
});
