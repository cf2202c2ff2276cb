import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from '../../src/parse/parseLinkHeader.js';

describe('parseLinkHeader', () => {
  it('parses several links with quoted and bare parameters, resolving targets', () => {
    const links = parseLinkHeader(
      '</t.ttl>; rel="alternate"; type="text/turtle", <http://x/t.rdf>;rel=alternate;type=application/rdf+xml, <c.css>; rel="stylesheet"',
      'http://example.org/vocab/pagination',
    );
    expect(links).toEqual([
      { url: 'http://example.org/t.ttl', rel: ['alternate'], type: 'text/turtle' },
      { url: 'http://x/t.rdf', rel: ['alternate'], type: 'application/rdf+xml' },
      { url: 'http://example.org/vocab/c.css', rel: ['stylesheet'] },
    ]);
  });

  it('handles several relation types, commas inside quotes, and empty headers', () => {
    expect(
      parseLinkHeader('<a>; rel="alternate describedby"; title="a, b"; type="application/ld+json"', 'http://h/'),
    ).toEqual([{ url: 'http://h/a', rel: ['alternate', 'describedby'], type: 'application/ld+json' }]);
    expect(parseLinkHeader(null, 'http://h/')).toEqual([]);
    expect(parseLinkHeader('garbage', 'http://h/')).toEqual([]);
  });
});
