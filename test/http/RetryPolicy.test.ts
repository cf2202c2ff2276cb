import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { RetryPolicy, parseRetryAfter, serviceMessageOf } from '../../src/http/RetryPolicy.js';

const body401 = readFileSync(new URL('../fixtures/client/error-401-invalid-key.json', import.meta.url), 'utf8');
const premium = '{"status":"Fail","message":"Access to this premium feature is restricted"}';

describe('RetryPolicy', () => {
  const policy = new RetryPolicy({ retries: 3, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, now: () => 0 });

  describe('decide', () => {
    it('stops at once on 401 with the service message and how to get a key', () => {
      const d = policy.decide({ kind: 'status', status: 401, body: body401 }, 1);
      expect(d).toMatchObject({ action: 'stop', code: 'auth', retryable: false });
      if (d.action !== 'stop') throw new Error();
      expect(d.message).toContain('Authentication failed. API key is invalid or missing');
      expect(d.message).toContain('`apiKey`');
      expect(d.message).toContain('`sample`');
    });

    it('stops on 403 premium feature with a hint about the page size', () => {
      const d = policy.decide({ kind: 'status', status: 403, body: premium }, 1);
      expect(d).toMatchObject({ action: 'stop', code: 'plan-limit' });
      if (d.action === 'stop') expect(d.message).toMatch(/premium feature.*`pageSize`/);
    });

    it('waits Retry-After on 429, then gives up as quota', () => {
      expect(policy.decide({ kind: 'status', status: 429, body: '', retryAfter: '2' }, 1)).toEqual({
        action: 'retry',
        delayMs: 2000,
        reason: '429 rate limited',
      });
      expect(policy.decide({ kind: 'status', status: 429, body: '' }, 2)).toMatchObject({
        action: 'retry',
        delayMs: 150,
      });
      expect(policy.decide({ kind: 'status', status: 429, body: '', retryAfter: '1' }, 4)).toMatchObject({
        action: 'stop',
        code: 'quota',
      });
    });

    it('stops as quota when Retry-After is longer than it will wait', () => {
      expect(policy.decide({ kind: 'status', status: 429, body: '', retryAfter: '86400' }, 1)).toMatchObject({
        action: 'stop',
        code: 'quota',
        retryable: true,
      });
    });

    it('retries 5xx, network failures and bad bodies with exponential backoff, then stops', () => {
      expect(policy.decide({ kind: 'status', status: 503, body: '' }, 1)).toMatchObject({
        action: 'retry',
        delayMs: 75,
      });
      expect(policy.decide({ kind: 'status', status: 500, body: '' }, 3)).toMatchObject({
        action: 'retry',
        delayMs: 300,
      });
      expect(policy.decide({ kind: 'status', status: 502, body: '' }, 4)).toMatchObject({
        action: 'stop',
        code: 'http-status',
        retryable: true,
      });
      expect(policy.decide({ kind: 'network', message: 'ECONNRESET' }, 2)).toMatchObject({
        action: 'retry',
        delayMs: 150,
      });
      expect(policy.decide({ kind: 'network', message: 'ECONNRESET' }, 4)).toMatchObject({
        action: 'stop',
        code: 'network',
      });
      expect(policy.decide({ kind: 'bad-body', message: 'truncated' }, 1)).toMatchObject({ action: 'retry' });
      expect(policy.decide({ kind: 'bad-body', message: 'truncated' }, 4)).toMatchObject({
        action: 'stop',
        code: 'bad-response',
      });
    });

    it('stops on other 4xx with the service message', () => {
      const d = policy.decide(
        { kind: 'status', status: 400, body: '{"status":"Fail","message":"Invalid parameters found"}' },
        1,
      );
      expect(d).toMatchObject({ action: 'stop', code: 'http-status', retryable: false });
      if (d.action === 'stop') expect(d.message).toContain('Invalid parameters found');
      expect(policy.decide({ kind: 'status', status: 404, body: '' }, 1)).toMatchObject({
        action: 'stop',
        code: 'not-found',
      });
    });
  });

  describe('backoffMs', () => {
    it('doubles, caps, and stays within the jitter band', () => {
      const jittery = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
      for (let attempt = 1; attempt <= 8; attempt++) {
        const cap = Math.min(1000, 100 * 2 ** (attempt - 1));
        const d = jittery.backoffMs(attempt);
        expect(d).toBeGreaterThanOrEqual(cap / 2);
        expect(d).toBeLessThanOrEqual(cap);
      }
    });
  });

  describe('parseRetryAfter', () => {
    it('reads seconds and HTTP dates', () => {
      expect(parseRetryAfter('3', 0)).toBe(3000);
      expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
      expect(parseRetryAfter('soon', 0)).toBeUndefined();
      expect(parseRetryAfter(null, 0)).toBeUndefined();
    });
  });

  describe('serviceMessageOf', () => {
    it('joins message and error_description, and excerpts HTML', () => {
      expect(serviceMessageOf(body401)).toBe(
        'Authentication failed. API key is invalid or missing — API key is invalid or missing. Ensure that a valid API key is included in the request URL.',
      );
      expect(serviceMessageOf('<html><body>Bad gateway</body></html>')).toBe('Bad gateway');
      expect(serviceMessageOf('')).toBeUndefined();
      // A body that echoed the (already redacted) URL keeps the placeholder where the key was.
      expect(serviceMessageOf('<p>bad request: /meta?q=x&api_key=<API_KEY></p>')).toBe(
        'bad request: /meta?q=x&api_key=<API_KEY>',
      );
    });
  });
});
