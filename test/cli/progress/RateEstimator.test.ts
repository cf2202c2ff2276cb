import { describe, expect, it } from 'vitest';
import { RateEstimator } from '../../../src/cli/progress/RateEstimator.js';

describe('RateEstimator', () => {
  it('gives no rate before two samples and no ETA during the warm-up (5 s and 3 samples)', () => {
    const r = new RateEstimator();
    r.sample(0, 0);
    expect(r.perSecond).toBeUndefined();
    expect(r.etaMs(100)).toBeUndefined();
    r.sample(1000, 10);
    expect(r.perSecond).toBeCloseTo(10);
    r.sample(2000, 20);
    expect(r.etaMs(100)).toBeUndefined(); // 3 samples, but 2 s only
    r.sample(5000, 50);
    expect(r.etaMs(100)).toBeCloseTo(5000, -2);
    const late = new RateEstimator();
    late.sample(0, 0);
    late.sample(6000, 60);
    expect(late.etaMs(100)).toBeUndefined(); // 6 s, but 2 samples only
  });

  it('starts its clock at the first sample: a slow start (a server starting, a first page) is not in the rate', () => {
    const r = new RateEstimator();
    r.sample(60_000, 25); // the first page came after a minute
    for (let s = 1; s <= 10; s++) r.sample(60_000 + s * 1000, 25 + s * 25);
    expect(r.perSecond).toBeCloseTo(25, 5);
  });

  it('has no ETA without a total or without progress', () => {
    const r = new RateEstimator({ warmupMs: 0, warmupSamples: 2 });
    r.sample(0, 5);
    r.sample(1000, 5);
    r.sample(2000, 5);
    expect(r.etaMs(100)).toBeUndefined();
    r.sample(3000, 10);
    expect(r.etaMs(null)).toBeUndefined();
    expect(r.etaMs(100)).toBeGreaterThan(0);
  });

  it('keeps the ETA steady through bursts of pages (no swing from an hour to minutes)', () => {
    // Pages of 25 records arrive in pairs (concurrency 2) every 2 s after a slow first page: 25 records/s.
    const r = new RateEstimator();
    const total = 5000;
    let t = 0;
    let done = 0;
    r.sample((t = 8000), (done = 25)); // the first page, 8 s in
    const errors: { t: number; error: number }[] = [];
    const check = () => {
      const eta = r.etaMs(total);
      const truth = ((total - done) / 25) * 1000;
      if (eta !== undefined) errors.push({ t, error: Math.abs(eta - truth) / truth });
    };
    for (let pair = 0; pair < 60; pair++) {
      t += 1990;
      r.sample(t, (done += 25));
      check();
      t += 10;
      r.sample(t, (done += 25));
      check();
    }
    expect(errors.length).toBeGreaterThan(110);
    // Every estimate within 25% of the truth at that moment (what is left at 25 records/s), within 10% after half a minute.
    expect(Math.max(...errors.map((e) => e.error))).toBeLessThan(0.25);
    expect(Math.max(...errors.filter((e) => e.t > 38_000).map((e) => e.error))).toBeLessThan(0.1);
  });

  it('follows a lasting change of rate within about a minute', () => {
    const r = new RateEstimator();
    let done = 0;
    for (let s = 0; s <= 60; s++) r.sample(s * 1000, (done += 100));
    expect(r.perSecond).toBeCloseTo(100, 0);
    for (let s = 61; s <= 120; s++) r.sample(s * 1000, (done += 50));
    expect(r.perSecond!).toBeLessThan(60);
    expect(r.perSecond!).toBeGreaterThan(50);
  });

  it('counts samples of the same instant with the next one', () => {
    const r = new RateEstimator({ warmupMs: 0, warmupSamples: 1 });
    r.sample(0, 0);
    r.sample(1000, 10);
    r.sample(1000, 20); // same instant: kept for the next sample
    r.sample(2000, 30);
    expect(r.perSecond).toBeGreaterThan(10);
  });
});
