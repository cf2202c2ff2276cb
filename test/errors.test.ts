import { describe, expect, it } from 'vitest';
import { hideSecrets, ioError, isIoFailure, redact } from '../src/errors.js';

describe('redact', () => {
  it('removes a key wherever it is, as given and URL-encoded', () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0';
    expect(redact(`GET /meta?api_key=${key}&s=1 said x${key}y`, [key])).toBe(
      'GET /meta?api_key=<API_KEY>&s=1 said x<API_KEY>y',
    );
    expect(redact('p=s3cret%2Fpw!', ['s3cret/pw!long'])).toBe('p=s3cret%2Fpw!');
    expect(redact('p=s3cret%2Fpw!long', ['s3cret/pw!long'])).toBe('p=<API_KEY>');
    // What is left of a secret where a text was cut (an excerpt of a body): a start before the mark, an end after it.
    expect(redact('proxy said: puser:PROXYPW-…', ['puser:PROXYPW-4711-secret'])).toBe('proxy said: <API_KEY>…');
    expect(redact('... said cHVzZXI6UFJP…', ['puser:PROXYPW-4711-secret'])).toBe('... said <API_KEY>…');
    expect(redact('…4711-secret was refused', ['puser:PROXYPW-4711-secret'])).toBe('…<API_KEY> was refused');
    expect(redact('a cut of something else: puse…', ['puser:PROXYPW-4711-secret'])).toBe(
      'a cut of something else: <API_KEY>…',
    );
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

describe('redact in base64', () => {
  it('removes a secret in base64, whole or inside a longer base64 text (an echoed Basic header)', () => {
    const password = 'Pa55-word/with+stuff';
    const basic = Buffer.from(`dba:${password}`).toString('base64');
    const out = redact(`echo: Authorization: Basic ${basic}`, [`dba:${password}`], '***');
    expect(out).toBe('echo: Authorization: Basic ***');
    // The password alone, at each of the three alignments inside base64 of a longer text.
    for (const before of ['', 'a', 'ab']) {
      const text = Buffer.from(`${before}${password}!!`).toString('base64');
      expect(redact(text, [password])).toContain('<API_KEY>');
    }
    expect(redact(Buffer.from('a1b2c3d4e5f6a7b8c9d0').toString('base64url'), ['a1b2c3d4e5f6a7b8c9d0'])).toBe(
      '<API_KEY>',
    );
  });
});

describe('hideSecrets', () => {
  it('hides the given secrets, the secrets of URLs and echoed credentials of HTTP authentication', () => {
    const text =
      'store said: GET /x?apikey=s3cr3t&graph=g Authorization: Basic ZGJhOnNlY3JldA== ' +
      'Authorization: Digest username="dba", realm="v", nonce="n", response="6629fae49393a05397450978507c4ef1" at http://u:p@host/';
    const out = hideSecrets(text, ['hunter2-long-password'], '***');
    expect(out).not.toMatch(/s3cr3t|ZGJhOnNlY3JldA|"dba"|6629fae4|u:p@/);
    expect(out).toContain('apikey=***');
    expect(out).toContain('realm="v"');
    // Words after Basic that are English stay.
    expect(hideSecrets('the store wants Basic authentication')).toBe('the store wants Basic authentication');
    // A key already replaced stays as it was.
    expect(hideSecrets('GET /meta?api_key=K3Y-0123456789&s=1', ['K3Y-0123456789'])).toBe(
      'GET /meta?api_key=<API_KEY>&s=1',
    );
  });

  it('hides the user and password of a URL whatever stands before its scheme', () => {
    expect(hideSecrets('see http://user:pw@host/x')).toBe('see http://***@host/x');
    expect(hideSecrets('1http://u:p@h and xhttps://u:p@h?x')).toBe('1http://***@h and xhttps://***@h?x');
    expect(hideSecrets('svn+ssh://u@h/p ://u:p@h 9://u:p@h')).toBe('svn+ssh://***@h/p ://u:p@h 9://u:p@h');
  });

  it('reads a long run of letters, of dots or of names once (a parser quoted a 256 KB literal: minutes)', () => {
    // Each of these took time quadratic in its length (the scheme tried at each letter; the cuts of a text of dots
    // searched for each form of the secret).
    for (const text of ['x'.repeat(400_000), '1a'.repeat(200_000), '...'.repeat(100_000)])
      expect(hideSecrets(text, ['hunter2-long-password'])).toBe(text);
  });
});

describe('ioError', () => {
  it('says in one line what failed, naming the path, and keeps a ToolkitError as it is', () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const err = ioError(enospc, '/tmp/out.nt', 'write', 'the dump');
    expect(err).toMatchObject({
      code: 'io',
      message: 'cannot write the dump /tmp/out.nt: no space left on the device (ENOSPC)',
      details: { path: '/tmp/out.nt', errno: 'ENOSPC' },
    });
    expect(ioError(Object.assign(new Error('x'), { code: 'ENOENT' }), '/no/such/r.ttl', 'create').message).toBe(
      'cannot create /no/such/r.ttl: its folder does not exist (ENOENT)',
    );
    expect(ioError(err, 'elsewhere')).toBe(err);
    expect(isIoFailure(enospc)).toBe(true);
    expect(isIoFailure(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isIoFailure(new Error('a bug'))).toBe(false);
    expect(isIoFailure(err)).toBe(false);
  });
});
