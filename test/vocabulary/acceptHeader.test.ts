import { describe, expect, it } from 'vitest';
import {
  formatAccept,
  preferredFormat,
  toAcceptHeader,
  DEFAULT_ACCEPT_WEIGHTS,
} from '../../src/vocabulary/acceptHeader.js';

describe('preferredFormat', () => {
  it('takes the first RDF media type of a plain list', () => {
    expect(preferredFormat('text/turtle')).toBe('turtle');
    expect(preferredFormat('application/rdf+xml, text/turtle')).toBe('rdfxml');
    expect(preferredFormat(formatAccept(DEFAULT_ACCEPT_WEIGHTS))).toBe('jsonld');
  });

  it('follows q-values, not the order written', () => {
    expect(preferredFormat('text/turtle;q=0.5, application/n-triples')).toBe('ntriples');
    expect(preferredFormat('application/ld+json;q=0.2, application/rdf+xml;q=0.9')).toBe('rdfxml');
  });

  it('reads a wildcard as the first format it covers that is not refused', () => {
    expect(preferredFormat('*/*')).toBe('jsonld');
    expect(preferredFormat('text/*')).toBe('turtle');
    expect(preferredFormat('*/*, application/ld+json;q=0')).toBe('turtle');
    expect(preferredFormat('text/html, */*;q=0.1')).toBe('jsonld');
  });

  it('gives nothing when no RDF format is asked for', () => {
    expect(preferredFormat('text/html')).toBeUndefined();
    expect(preferredFormat('text/turtle;q=0')).toBeUndefined();
    expect(preferredFormat(toAcceptHeader('image/png'))).toBeUndefined();
  });
});
