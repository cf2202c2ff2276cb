import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  basicAuthorization,
  digestAuthorization,
  isSupportedDigest,
  parseAuthChallenges,
} from '../../src/store/digestAuth.js';

// RFC 7616 §3.9.1: the worked example (same credentials, MD5 and SHA-256).
const RFC_CHALLENGE = {
  realm: 'http-auth@example.org',
  qop: 'auth, auth-int',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
};
const RFC_REQUEST = {
  method: 'GET',
  uri: '/dir/index.html',
  user: 'Mufasa',
  password: 'Circle of Life',
  nc: 1,
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
};

function paramsOf(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^Digest /, '').matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g))
    out[m[1]!] = m[2] ?? m[3]!;
  return out;
}

describe('digestAuthorization', () => {
  it('answers the RFC 7616 MD5 example', () => {
    const header = digestAuthorization({ ...RFC_REQUEST, challenge: { ...RFC_CHALLENGE, algorithm: 'MD5' } });
    const p = paramsOf(header);
    expect(p['response']).toBe('8ca523f5e9506fed4657c9700eebdbec');
    expect(p).toMatchObject({
      username: 'Mufasa',
      realm: RFC_CHALLENGE.realm,
      uri: '/dir/index.html',
      qop: 'auth',
      nc: '00000001',
      opaque: RFC_CHALLENGE.opaque,
    });
  });

  it('answers the RFC 7616 SHA-256 example', () => {
    const header = digestAuthorization({ ...RFC_REQUEST, challenge: { ...RFC_CHALLENGE, algorithm: 'SHA-256' } });
    expect(paramsOf(header)['response']).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('answers the RFC 2617 §3.5 example (qop=auth)', () => {
    const header = digestAuthorization({
      challenge: {
        realm: 'testrealm@host.com',
        qop: 'auth,auth-int',
        nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
        opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      },
      method: 'GET',
      uri: '/dir/index.html',
      user: 'Mufasa',
      password: 'Circle Of Life',
      nc: 1,
      cnonce: '0a4f113b',
    });
    expect(paramsOf(header)['response']).toBe('6629fae49393a05397450978507c4ef1');
  });

  it('answers a challenge without qop as RFC 2069 does: MD5(HA1:nonce:HA2)', () => {
    const header = digestAuthorization({
      challenge: { realm: 'testrealm@host.com', nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093' },
      method: 'GET',
      uri: '/dir/index.html',
      user: 'Mufasa',
      password: 'Circle Of Life',
      nc: 1,
    });
    const p = paramsOf(header);
    const md5 = (t: string) => createHash('md5').update(t).digest('hex');
    const ha1 = md5('Mufasa:testrealm@host.com:Circle Of Life');
    const ha2 = md5('GET:/dir/index.html');
    expect(p['response']).toBe(md5(`${ha1}:dcd98b7102dd2f0e8b11d0f600bfb0c093:${ha2}`));
    expect(p['qop']).toBeUndefined();
    expect(p['nc']).toBeUndefined();
  });

  it('counts nonce uses in hex and gives a fresh cnonce each time', () => {
    const a = paramsOf(digestAuthorization({ ...RFC_REQUEST, cnonce: undefined, nc: 26, challenge: RFC_CHALLENGE }));
    const b = paramsOf(digestAuthorization({ ...RFC_REQUEST, cnonce: undefined, nc: 26, challenge: RFC_CHALLENGE }));
    expect(a['nc']).toBe('0000001a');
    expect(a['cnonce']).not.toBe(b['cnonce']);
    expect(a['response']).not.toBe(b['response']);
  });

  it('escapes quotes in the user name', () => {
    expect(digestAuthorization({ ...RFC_REQUEST, user: 'a"b', challenge: RFC_CHALLENGE })).toContain(
      'username="a\\"b"',
    );
  });
});

describe('parseAuthChallenges', () => {
  it("reads Virtuoso's Digest challenge", () => {
    const [c] = parseAuthChallenges(
      'Digest realm="SPARQL", domain="/sparql-graph-crud-auth", nonce="7a987da8fc943ae9c86fc4ca0e8e6315", opaque="5ebe2294ecd0e0f08eab7690d2a6ee69", stale="false", qop="auth", algorithm="MD5"',
    );
    expect(c).toEqual({
      scheme: 'digest',
      params: {
        realm: 'SPARQL',
        domain: '/sparql-graph-crud-auth',
        nonce: '7a987da8fc943ae9c86fc4ca0e8e6315',
        opaque: '5ebe2294ecd0e0f08eab7690d2a6ee69',
        stale: 'false',
        qop: 'auth',
        algorithm: 'MD5',
      },
    });
    expect(isSupportedDigest(c!.params)).toBe(true);
  });

  it('splits several challenges and keeps commas inside quoted values', () => {
    const cs = parseAuthChallenges(
      'Basic realm="a, b", Digest realm="r", nonce="n", qop="auth,auth-int", algorithm=SHA-256',
    );
    expect(cs.map((c) => c.scheme)).toEqual(['basic', 'digest']);
    expect(cs[0]!.params['realm']).toBe('a, b');
    expect(cs[1]!.params).toMatchObject({ qop: 'auth,auth-int', algorithm: 'SHA-256' });
  });

  it('refuses what it cannot answer', () => {
    expect(isSupportedDigest({ nonce: 'n', qop: 'auth-int' })).toBe(false);
    expect(isSupportedDigest({ nonce: 'n', algorithm: 'SHA-1' })).toBe(false);
    expect(isSupportedDigest({ realm: 'r' })).toBe(false);
  });
});

describe('basicAuthorization', () => {
  it('encodes user:password as UTF-8 base64 (RFC 7617)', () => {
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(basicAuthorization('test', '123£')).toBe('Basic dGVzdDoxMjPCow==');
  });
});
