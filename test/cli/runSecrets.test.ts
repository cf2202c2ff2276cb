import { describe, expect, it } from 'vitest';
import { hideRunSecrets, secretsOfRun } from '../../src/cli/runSecrets.js';

describe('secretsOfRun', () => {
  it('takes keys and passwords from flags and the environment, credentials and secret parameters from URLs, proxies too', () => {
    const secrets = secretsOfRun(
      [
        'load',
        'x.nt',
        '--endpoint',
        'http://u:p%40ss-w0rd-long@h/ds?apikey=St0reKey123',
        '--password=Flag-Pw-9',
        '--api-key',
        'K3y-from-flag',
      ],
      {
        SCHOLARLY_API_KEY: 'Env-K3y-0001',
        SCHOLARLY_STORE_PASSWORD: 'Env-Pw-0002',
        HTTPS_PROXY: 'puser:Pr0xy%2FPw@proxy:3128',
        SPRINGERNATURE_API_KEY: 'sample',
      },
    );
    for (const s of [
      'p@ss-w0rd-long',
      'u:p@ss-w0rd-long',
      'St0reKey123',
      'Flag-Pw-9',
      'K3y-from-flag',
      'Env-K3y-0001',
      'Env-Pw-0002',
      'Pr0xy/Pw',
      'puser:Pr0xy/Pw',
      'Pr0xy%2FPw',
    ])
      expect(secrets).toContain(s);
    // The sample service's key is public.
    expect(secrets).not.toContain('sample');
  });

  it("hides a proxy's credentials echoed in base64, decoded, and cut", () => {
    const secrets = secretsOfRun(['get', '10.1/x'], { HTTP_PROXY: 'http://puser:PROXYPW-4711@127.0.0.1:3128' });
    const b64 = Buffer.from('puser:PROXYPW-4711').toString('base64');
    const text = hideRunSecrets(
      `502: Proxy-Authorization: Basic ${b64}; you are puser:PROXYPW-4711; user puser:PROX…`,
      secrets,
    );
    expect(text).not.toMatch(/PROX|4711/);
    expect(text).not.toContain(b64.slice(0, 12));
  });
});
