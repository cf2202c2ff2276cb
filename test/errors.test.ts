import { describe, expect, it } from 'vitest';
import { redact } from '../src/errors.js';

describe('redact', () => {
  it('removes a key wherever it is, as given and URL-encoded', () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0';
    expect(redact(`GET /meta?api_key=${key}&s=1 said x${key}y`, [key])).toBe('GET /meta?api_key=<API_KEY>&s=1 said x<API_KEY>y');
    expect(redact('p=s3cret%2Fpw!', ['s3cret/pw!long'])).toBe('p=s3cret%2Fpw!');
    expect(redact('p=s3cret%2Fpw!long', ['s3cret/pw!long'])).toBe('p=<API_KEY>');
    expect(redact('p=s3cret%2fpw!long', ['s3cret/pw!long'])).toBe('p=<API_KEY>');
  });

  it('removes a short key where it stands alone, and leaves the words that contain it', () => {
    expect(redact('network failure; check the connection [GET /x?api_key=k&s=1]', ['k'])).toBe(
      'network failure; check the connection [GET /x?api_key=<API_KEY>&s=1]',
    );
    expect(redact('"apiKey":"sample" --sample', ['sample'])).toBe('"apiKey":"<API_KEY>" --<API_KEY>');
    expect(redact('user dba, password a.b at a.b.c', ['a.b'])).toBe('user dba, password <API_KEY> at <API_KEY>.c');
    // In a URL that was itself percent-encoded, and as URLSearchParams writes it.
    expect(redact('next=url%3Fapi_key%3Dabc%26p%3D1', ['abc'])).toBe('next=url%3Fapi_key%3D<API_KEY>%26p%3D1');
    expect(redact('api_key=a+b&x=a%20b&y=a%21b%7E', ['a b', 'a!b~'])).toBe('api_key=<API_KEY>&x=<API_KEY>&y=<API_KEY>');
  });
});
