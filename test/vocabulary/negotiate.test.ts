import { describe, expect, it } from 'vitest';
import { negotiate, parseAccept } from '../../src/vocabulary/negotiate.js';

const FOUR = ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml'];

describe('negotiate', () => {
  it('picks each of the four formats by its exact media type', () => {
    for (const type of FOUR) expect(negotiate(type, FOUR)).toBe(type);
  });

  it('honours q-values', () => {
    expect(negotiate('application/ld+json;q=0.5, text/turtle;q=0.9', FOUR)).toBe('text/turtle');
    expect(negotiate('text/turtle;q=0.1, application/rdf+xml', FOUR)).toBe('application/rdf+xml');
    expect(negotiate('text/turtle; q=0.8 , application/n-triples ; q=0.81', FOUR)).toBe('application/n-triples');
  });

  it('takes the first available type for */*, an empty or a missing header, and for ties', () => {
    expect(negotiate('*/*', FOUR)).toBe('application/ld+json');
    expect(negotiate('', FOUR)).toBe('application/ld+json');
    expect(negotiate(undefined, FOUR)).toBe('application/ld+json');
    expect(negotiate(null, FOUR)).toBe('application/ld+json');
    // Equal q: the server's order decides.
    expect(negotiate('text/turtle, application/rdf+xml', FOUR)).toBe('text/turtle');
  });

  it('matches type/* ranges', () => {
    expect(negotiate('text/*', FOUR)).toBe('text/turtle');
    expect(negotiate('application/*;q=0.5, text/*;q=0.4', ['text/turtle', 'application/rdf+xml'])).toBe(
      'application/rdf+xml',
    );
  });

  it('lets the most specific range decide the quality of a type', () => {
    // text/turtle is excluded by its own range even though */* accepts everything.
    expect(negotiate('text/turtle;q=0, */*;q=0.1', ['text/turtle', 'application/rdf+xml'])).toBe('application/rdf+xml');
    // application/* at 1 but the exact range gives ld+json only 0.2.
    expect(negotiate('application/*, application/ld+json;q=0.2', FOUR)).toBe('application/n-triples');
    // A browser's header: text/html is not available, */* at 0.8 picks the first.
    expect(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', FOUR)).toBe(
      'application/ld+json',
    );
  });

  it('is case-insensitive and ignores parameters of offered types', () => {
    expect(negotiate('TEXT/Turtle', FOUR)).toBe('text/turtle');
    expect(negotiate('text/turtle', ['application/ld+json', 'text/turtle; charset=utf-8'])).toBe(
      'text/turtle; charset=utf-8',
    );
  });

  it('returns undefined when nothing is acceptable (the server answers 406)', () => {
    expect(negotiate('text/html', FOUR)).toBeUndefined();
    expect(negotiate('application/json', FOUR)).toBeUndefined();
    expect(negotiate('*/*;q=0', FOUR)).toBeUndefined();
    expect(negotiate('text/turtle', [])).toBeUndefined();
  });

  it('skips malformed ranges and falls back to the first type when none is left', () => {
    expect(negotiate('garbage, text/turtle', FOUR)).toBe('text/turtle');
    expect(negotiate('garbage', FOUR)).toBe('application/ld+json');
    expect(negotiate('text/turtle;q=abc, application/rdf+xml;q=0.1', FOUR)).toBe('application/rdf+xml');
  });

  it('does not split inside quoted parameters', () => {
    const header = 'application/ld+json;profile="http://www.w3.org/ns/json-ld#expanded, x";q=0.9, text/turtle;q=0.5';
    expect(parseAccept(header).map((r) => [r.type, r.subtype, r.q])).toEqual([
      ['application', 'ld+json', 0.9],
      ['text', 'turtle', 0.5],
    ]);
    expect(negotiate(header, FOUR)).toBe('application/ld+json');
  });
});
