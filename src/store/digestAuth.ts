import { createHash, randomBytes } from 'node:crypto';

/** One authentication challenge of a `WWW-Authenticate` header: its scheme and parameters (names lower-cased). */
export interface AuthChallenge {
  scheme: string;
  params: Readonly<Record<string, string>>;
}

/**
 * Parses a `WWW-Authenticate` header value into its challenges
 * (RFC 9110 §11.6.1): `Digest realm="x", nonce="y", qop="auth", Basic realm="z"`.
 * Quoted strings may hold commas and escaped quotes. Unreadable parts are skipped.
 */
export function parseAuthChallenges(header: string): AuthChallenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  const s = header;
  let i = 0;
  const skipSpaces = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  const readToken = (): string => {
    const start = i;
    while (i < s.length && /[!#$%&'*+.^_`|~0-9A-Za-z-]/.test(s[i]!)) i++;
    return s.slice(start, i);
  };
  while (i < s.length) {
    skipSpaces();
    if (s[i] === ',') {
      i++;
      continue;
    }
    const token = readToken();
    if (token === '') {
      i++;
      continue;
    }
    skipSpaces();
    if (s[i] === '=' && challenges.length > 0) {
      // auth-param of the current challenge
      i++;
      skipSpaces();
      let value: string;
      if (s[i] === '"') {
        i++;
        let v = '';
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && i + 1 < s.length) i++;
          v += s[i];
          i++;
        }
        i++;
        value = v;
      } else {
        const start = i;
        while (i < s.length && s[i] !== ',') i++;
        value = s.slice(start, i).trim();
      }
      challenges[challenges.length - 1]!.params[token.toLowerCase()] = value;
    } else {
      // a new scheme (a token68 after it, as in `Bearer abc==`, is ignored)
      challenges.push({ scheme: token.toLowerCase(), params: {} });
    }
  }
  return challenges;
}

/** What {@link digestAuthorization} needs to answer a challenge. */
export interface DigestRequest {
  /** The server's `Digest` challenge parameters (realm, nonce, qop, algorithm, opaque). */
  challenge: Readonly<Record<string, string>>;
  method: string;
  /** The request target: path and query of the URL, as sent. */
  uri: string;
  user: string;
  password: string;
  /** The nonce count (how many requests used this nonce, this one included). */
  nc: number;
  /** The client nonce. Defaults to 16 random bytes, hex. */
  cnonce?: string;
}

const ALGORITHMS: Record<string, string> = { md5: 'md5', 'sha-256': 'sha256', 'sha-512-256': 'sha512-256' };

/** Whether {@link digestAuthorization} can answer this challenge (a known algorithm, `auth` qop or none). */
export function isSupportedDigest(challenge: Readonly<Record<string, string>>): boolean {
  const algorithm = (challenge['algorithm'] ?? 'MD5').toLowerCase().replace(/-sess$/, '');
  const qops = qopsOf(challenge);
  return algorithm in ALGORITHMS && challenge['nonce'] !== undefined && (qops.length === 0 || qops.includes('auth'));
}

function qopsOf(challenge: Readonly<Record<string, string>>): string[] {
  return (challenge['qop'] ?? '')
    .split(',')
    .map((q) => q.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The `Authorization` header value answering an HTTP Digest challenge
 * (RFC 7616; RFC 2617 without qop): algorithms MD5, SHA-256, SHA-512-256 and
 * their `-sess` variants, qop `auth` (integrity protection, `auth-int`, is not
 * offered). Pure but for the random `cnonce` default.
 */
export function digestAuthorization(request: DigestRequest): string {
  const { challenge, method, uri, user, password } = request;
  const algorithmName = challenge['algorithm'] ?? 'MD5';
  const lower = algorithmName.toLowerCase();
  const sess = lower.endsWith('-sess');
  const hashName = ALGORITHMS[sess ? lower.slice(0, -5) : lower];
  if (!hashName) throw new Error(`unsupported Digest algorithm ${algorithmName}`);
  const h = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const realm = challenge['realm'] ?? '';
  const nonce = challenge['nonce'] ?? '';
  const qop = qopsOf(challenge).includes('auth') ? 'auth' : undefined;
  const cnonce = request.cnonce ?? randomBytes(16).toString('hex');
  const nc = request.nc.toString(16).padStart(8, '0');
  let ha1 = h(`${user}:${realm}:${password}`);
  if (sess) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  const response = qop ? h(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${nonce}:${ha2}`);
  const parts = [
    `username=${quote(user)}`,
    `realm=${quote(realm)}`,
    `nonce=${quote(nonce)}`,
    `uri=${quote(uri)}`,
    `algorithm=${algorithmName}`,
    `response=${quote(response)}`,
  ];
  if (challenge['opaque'] !== undefined) parts.push(`opaque=${quote(challenge['opaque'])}`);
  if (qop || sess) parts.push(`cnonce=${quote(cnonce)}`);
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`);
  return `Digest ${parts.join(', ')}`;
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The `Authorization` header value of HTTP Basic (RFC 7617, UTF-8). */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
