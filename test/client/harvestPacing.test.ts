// A harvest against a service that limits its rate (a token bucket, as `serve --rate`): the first 429
// finds the limit; from then on every request waits for the pause it asked for and keeps a rate
// learned from it, so no request sent after that 429 came back draws another. Adaptive or fixed.
// The service, the client's sleeps and its pacer run on one virtual clock (no socket, no real timer):
// what the harvest does is the same on a quiet and on a loaded machine.
import { describe, expect, it } from 'vitest';
import { harvest } from '../../src/client/harvest.js';
import { RequestPacer } from '../../src/client/RequestPacer.js';
import { VirtualClock, makeRecords, rateLimit, virtualService } from './fakeService.js';

describe('a harvest against a rate-limited service', () => {
  for (const concurrency of [undefined, 2]) {
    it(`${concurrency ? `at concurrency ${concurrency}` : 'adaptive (the default)'}: after the first 429, no request sent draws another; the records are all there`, async () => {
      const clock = new VirtualClock();
      // 30 requests a second with a second's worth of burst; pages of 5 answered in 5 ms go far faster
      const limit = rateLimit(30, 1, clock.now);
      const records = makeRecords(450);
      const service = virtualService({ records, latencyMs: 5, fault: limit }, clock);
      const pacer = new RequestPacer({ now: clock.now });
      const got = await clock.run(async () => {
        const dois: unknown[] = [];
        for await (const r of harvest('x', {
          baseUrl: 'http://service.test',
          pageSize: 5,
          fetch: service.fetch,
          sleep: clock.sleep,
          clock: clock.now,
          pacer,
          ...(concurrency ? { concurrency } : {}),
        }))
          dois.push(r['doi']);
        return dois;
      });
      expect(got).toEqual(records.map((r) => r.doi));
      const tooMany = service.log.filter((l) => l.status === 429);
      expect(tooMany.length).toBeGreaterThan(0); // the harvest did find the limit
      const found = Math.min(...tooMany.map((l) => l.answered));
      // only the requests already on their way when the first 429 came back
      expect(tooMany.filter((l) => l.sent > found)).toEqual([]);
      expect(pacer.cuts).toBe(1);
      expect(pacer.learned).toBeLessThanOrEqual(30);
      // 90 pages at most 30 a second after the first second's burst: the virtual time says the pacing held
      expect(clock.now()).toBeGreaterThan(2000);
    });
  }
});
