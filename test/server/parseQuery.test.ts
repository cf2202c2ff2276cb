import { describe, expect, it } from 'vitest';
import { parseQuery, QuerySyntaxError, type QueryNode } from '../../src/server/parseQuery.js';

/** A compact, readable form of a tree. */
function show(node: QueryNode): string {
  switch (node.type) {
    case 'and':
      return `(${node.children.map(show).join(' & ')})`;
    case 'or':
      return `(${node.children.map(show).join(' | ')})`;
    case 'not':
      return `!${show(node.child)}`;
    case 'term': {
      const v = node.phrase ? `"${node.value}"` : node.value;
      return `${node.field ? `${node.field}:` : ''}${v}${node.prefix ? '*' : ''}`;
    }
  }
}

function errorOf(q: string, options = {}): QuerySyntaxError {
  try {
    parseQuery(q, options);
  } catch (err) {
    if (err instanceof QuerySyntaxError) return err;
    throw err;
  }
  throw new Error(`no error for ${q}`);
}

describe('parseQuery', () => {
  describe('terms', () => {
    it('reads field:value constraints, free words and phrases', () => {
      expect(show(parseQuery('year:2015'))).toBe('year:2015');
      expect(show(parseQuery('YEAR:2015'))).toBe('year:2015');
      expect(show(parseQuery('metabolomics'))).toBe('metabolomics');
      expect(show(parseQuery('"visual analytics"'))).toBe('"visual analytics"');
      expect(show(parseQuery('subject:"Life Sciences"'))).toBe('subject:"Life Sciences"');
      expect(show(parseQuery('title:urb*'))).toBe('title:urb*');
    });

    it('keeps DOIs whole, with their own parentheses, semicolons and angle brackets', () => {
      const doi = '10.1002/(SICI)1097-4636(199712)37:4<548::AID-JBM13>3.0.CO;2-A';
      expect(show(parseQuery(`doi:${doi}`))).toBe(`doi:${doi}`);
      expect(show(parseQuery(`(doi:${doi} OR year:2015)`))).toBe(`(doi:${doi} | year:2015)`);
      expect(show(parseQuery(`(year:2015 OR doi:${doi})`))).toBe(`(year:2015 | doi:${doi})`);
      expect(show(parseQuery('((doi:10.1007/BF(02)123;4))'))).toBe('doi:10.1007/BF(02)123;4');
    });

    it('accepts field=value only when asked (the v1 family)', () => {
      expect(show(parseQuery('doi=10.1007/s1', { allowEquals: true }))).toBe('doi:10.1007/s1');
      expect(show(parseQuery('doi=10.1007/s1'))).toBe('doi=10.1007/s1');
    });
  });

  describe('operators', () => {
    it('gives AND precedence over OR; juxtaposition is AND', () => {
      expect(show(parseQuery('a b OR c'))).toBe('((a & b) | c)');
      expect(show(parseQuery('a AND b OR c AND d'))).toBe('((a & b) | (c & d))');
      expect(show(parseQuery('a AND (b OR c)'))).toBe('(a & (b | c))');
    });

    it('reads NOT as a prefix operator, and lower-case and/or/not as words', () => {
      expect(show(parseQuery('NOT a b'))).toBe('(!a & b)');
      expect(show(parseQuery('a NOT NOT b'))).toBe('(a & !!b)');
      expect(show(parseQuery('cats and dogs'))).toBe('(cats & and & dogs)');
    });
  });

  describe('errors', () => {
    it('says what and where (1-based position)', () => {
      expect(errorOf('(a OR b').message).toMatch(/'\(' is never closed at position 1/);
      expect(errorOf('a OR b)').position).toBe(6);
      expect(errorOf('a OR').message).toMatch(/end of query/);
      expect(errorOf('OR a').message).toMatch(/unexpected operator OR, a term was expected at position 1/);
      expect(errorOf('a AND )').message).toMatch(/unexpected '\)' at position 7/);
      expect(errorOf('()').message).toMatch(/unexpected '\)' at position 2/);
      expect(errorOf('  ').message).toMatch(/empty query/);
      expect(errorOf('author:x').message).toMatch(/unknown field 'author'/);
      expect(errorOf('year:').message).toMatch(/empty value for field 'year' at position 6/);
      expect(errorOf('title:"abc').message).toMatch(/unterminated/);
      expect(errorOf('*').message).toMatch(/needs a prefix/);
      expect(errorOf('onlinedate:2015-02-30x').message).toMatch(/onlinedate needs a date/);
      expect(errorOf('openaccess:maybe').message).toMatch(/true or false/);
    });

    it('limits length, nesting and the number of terms', () => {
      expect(errorOf('a'.repeat(11), { maxLength: 10 }).message).toMatch(/longer than 10/);
      expect(errorOf('((((a))))', { maxDepth: 3 }).message).toMatch(/nesting deeper than 3/);
      expect(errorOf('NOT NOT NOT NOT a', { maxDepth: 3 }).message).toMatch(/nesting deeper than 3/);
      expect(errorOf('a '.repeat(101)).message).toMatch(/more than 100 terms/);
      expect(() => parseQuery('((((a))))', { maxDepth: 4 })).not.toThrow();
    });

    it('is a ParseError with the column', () => {
      const err = errorOf('a )');
      expect(err.code).toBe('parse');
      expect(err.column).toBe(3);
    });
  });
});
