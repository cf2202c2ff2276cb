import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIriPath, encodeIriSegment, generalIri, toIri } from '../../src/mapping/iri.js';

// Characters around the edges of toIri's shortcut for plain URLs: dots and slashes (dot segments), '-' (label
// ends), '%', '#', '?', ':' (ports), '@' (user information), upper case, spaces, non-ASCII and what IRIs refuse.
const URL_CHARS = [
  'a',
  'B',
  '0',
  '9',
  '-',
  '.',
  '/',
  '?',
  '#',
  '%',
  ':',
  '@',
  '_',
  '~',
  ' ',
  'é',
  '\u200E',
  '"',
  '\\',
  '=',
  '&',
];
const urlText = fc.array(fc.constantFrom(...URL_CHARS), { maxLength: 24 }).map((chars) => chars.join(''));
const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', '');
// Hosts: mostly well-formed labels, with dashes and dots where they may or may not stand.
const host = fc.oneof(
  urlText,
  fc.array(fc.constantFrom('a', 'B', '0', '-', '.'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')),
);

describe('toIri', () => {
  it('keeps a plain URL as it is', () => {
    expect(toIri('https://link.springer.com/article/10.1007/s00381-023-0000-t')).toBe(
      'https://link.springer.com/article/10.1007/s00381-023-0000-t',
    );
    expect(toIri('http://link.springer.com/openurl/pdf?id=doi:10.1007/s1?x=/y')).toBe(
      'http://link.springer.com/openurl/pdf?id=doi:10.1007/s1?x=/y',
    );
    expect(toIri('  http://example.org  ')).toBe('http://example.org');
  });

  it('takes the general path where a plain URL is not plain', () => {
    expect(toIri('http://a.example/x/../y')).toBe('http://a.example/y');
    expect(toIri('http://a.example/x?q=/./')).toBe('http://a.example/x?q=/%2E/');
    expect(toIri('http://-a.example/')).toBeUndefined();
    expect(toIri('http://a-.example/')).toBeUndefined();
    expect(toIri('HTTP://a.example/')).toBe('http://a.example/');
    expect(toIri('http://a.example:80/')).toBe('http://a.example/');
  });

  it('gives what the general rules give, for any text', () => {
    fc.assert(
      fc.property(scheme, host, urlText, (s, h, rest) => {
        const url = `${s}${h}${rest}`;
        expect(toIri(url)).toBe(generalIri(url));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('encodeIriPath and encodeIriSegment', () => {
  it('keep safe ASCII, encode dot segments and what IRIs cannot hold', () => {
    expect(encodeIriPath('10.1007/s00381-023-0000-t')).toBe('10.1007/s00381-023-0000-t');
    expect(encodeIriPath('10.1/./a/..')).toBe('10.1/%2E/a/%2E%2E');
    expect(encodeIriPath('.')).toBe('%2E');
    expect(encodeIriPath('10.1/a b#c')).toBe('10.1/a%20b%23c');
    expect(encodeIriSegment('a/b')).toBe('a%2Fb');
    expect(encodeIriSegment('..')).toBe('%2E%2E');
  });
});
