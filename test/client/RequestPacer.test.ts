// When a harvest's requests may start: --rate, the pauses a 429 asks for, a rate learned from 429s.
// Driven by fake events on a fake clock: no network, no timers.
import { describe, expect, it } from 'vitest';
import { RequestPacer } from '../../src/client/RequestPacer.js';

function clocked(options: { rate?: number; patienceMs?: number } = {}): { pacer: RequestPacer; clock: { t: number } } {
  const clock = { t: 10_000 };
  return { pacer: new RequestPacer({ ...options, now: () => clock.t }), clock };
}

/** `n` requests answered 200, one every `everyMs`, each started when the pacer says. */
function answer(pacer: RequestPacer, clock: { t: number }, n: number, everyMs: number): number[] {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) {
    const { waitMs } = pacer.reserve();
    waits.push(waitMs);
    clock.t += Math.max(waitMs, everyMs);
    pacer.succeeded();
  }
  return waits;
}

/** The starts the pacer gives `n` requests reserved at once. */
const starts = (pacer: RequestPacer, n: number) => Array.from({ length: n }, () => pacer.reserve().waitMs);

describe('RequestPacer', () => {
  it('holds nothing back before the service pushes back (no --rate)', () => {
    const { pacer, clock } = clocked();
    expect(answer(pacer, clock, 50, 10).every((w) => w === 0)).toBe(true);
    expect(starts(pacer, 10)).toEqual(new Array(10).fill(0));
    expect(pacer.rate).toBeUndefined();
  });

  it('keeps --rate: starts 1000/rate ms apart', () => {
    const { pacer } = clocked({ rate: 4 });
    expect(starts(pacer, 4)).toEqual([0, 250, 500, 750]);
  });

  it('holds every start during the pause a 429 asks for, but not the request that drew it once it waited it out', () => {
    const { pacer, clock } = clocked();
    const epoch = pacer.send();
    const until = pacer.pushback(epoch, 429, 1000);
    expect(until).toBe(clock.t + 1000);
    expect(pacer.reserve().waitMs).toBe(1000); // another request
    expect(pacer.reserve(until).waitMs).toBe(0); // the one that drew it, after its own wait
    clock.t += 1000;
    expect(pacer.reserve().waitMs).toBe(0);
  });

  it('a pause asked for by a 5xx with Retry-After holds every start too, but teaches no rate', () => {
    const { pacer, clock } = clocked();
    answer(pacer, clock, 20, 50);
    pacer.pushback(pacer.send(), 503, 2000);
    expect(pacer.reserve().waitMs).toBe(2000);
    expect(pacer.learned).toBeUndefined();
  });

  it('after a 429 keeps the rate a service with a second of burst surely allows (the 200s of the last a seconds over 1 + a), starts evenly spaced', () => {
    const { pacer, clock } = clocked();
    answer(pacer, clock, 20, 50); // 20 a second for a second
    pacer.pushback(pacer.send(), 429, 1000);
    expect(pacer.ceiling).toBe(20);
    expect(pacer.learned).toBe(10);
    expect(starts(pacer, 4)).toEqual([1000, 1100, 1200, 1300]);
    // a young harvest: 10 answers in 0.2 s; an older one: 100 in 5 s
    const young = clocked();
    answer(young.pacer, young.clock, 10, 20);
    young.pacer.pushback(young.pacer.send(), 429, 1000);
    expect(young.pacer.learned).toBeCloseTo(10 / 1.2);
    const older = clocked();
    answer(older.pacer, older.clock, 100, 50);
    older.pacer.pushback(older.pacer.send(), 429, 1000);
    expect(older.pacer.learned).toBeCloseTo(100 / 6);
  });

  it('429s of requests sent before the cut (already on their way) do not cut again; one sent at the learned rate cuts it again', () => {
    const { pacer, clock } = clocked();
    answer(pacer, clock, 20, 50);
    const before = [pacer.send(), pacer.send(), pacer.send()];
    pacer.pushback(before[0]!, 429, 1000);
    pacer.pushback(before[1]!, 429, 1000);
    pacer.pushback(before[2]!, 429, 1000);
    expect(pacer.learned).toBe(10);
    expect(pacer.cuts).toBe(1);
    clock.t += 1000;
    answer(pacer, clock, 20, 0); // paced at 10 a second: 20 answers in the 1.9 s since the pause ended
    pacer.pushback(pacer.send(), 429, 1000);
    expect(pacer.learned).toBeCloseTo(20 / 2.9);
    expect(pacer.cuts).toBe(2);
  });

  it('learns no rate from a 429 that asks for no wait, nor from one without answers before it', () => {
    const { pacer, clock } = clocked();
    pacer.pushback(pacer.send(), 429, 1000); // the first request: nothing to measure
    expect(pacer.learned).toBeUndefined();
    clock.t += 1000;
    answer(pacer, clock, 30, 50);
    pacer.pushback(pacer.send(), 429, 0);
    expect(pacer.learned).toBeUndefined();
    expect(pacer.reserve().waitMs).toBe(0);
  });

  it('--rate stays the ceiling whatever is learned', () => {
    const { pacer, clock } = clocked({ rate: 8, patienceMs: 1000 });
    answer(pacer, clock, 30, 50); // paced at 8 a second
    pacer.pushback(pacer.send(), 429, 1000);
    expect(pacer.learned).toBeLessThan(8);
    clock.t += 1000;
    for (let i = 0; i < 12; i++) answer(pacer, clock, 10, 0);
    expect(pacer.learned).toBeGreaterThan(8);
    expect(pacer.rate).toBe(8);
    clock.t += 1000;
    expect(starts(pacer, 3)).toEqual([0, 125, 250]);
  });

  it('grows by a tenth each patience while it holds starts back, to 0.9x the rate that drew the 429, then past it; a grown rate that draws a 429 doubles the patience', () => {
    const { pacer, clock } = clocked({ patienceMs: 1000 });
    answer(pacer, clock, 20, 50); // 20 a second
    pacer.pushback(pacer.send(), 429, 1000);
    clock.t += 1000;
    const rates: number[] = [];
    for (let i = 0; i < 8; i++) {
      answer(pacer, clock, Math.ceil(pacer.learned!) + 1, 0); // as fast as the pacer lets them go: it holds them back
      rates.push(Number(pacer.learned!.toFixed(2)));
    }
    expect(rates).toEqual([11, 12.1, 13.31, 14.64, 16.11, 17.72, 18, 19.8]);
    // the rate past 0.9x the ceiling draws a 429: cut, and twice the patience before it grows again
    pacer.pushback(pacer.send(), 429, 1000);
    expect(pacer.learned).toBeLessThan(19.8);
    const cut = pacer.learned!;
    clock.t += 1000;
    answer(pacer, clock, Math.ceil(cut * 1.5), 0);
    expect(pacer.learned).toBe(cut);
    answer(pacer, clock, Math.ceil(cut), 0);
    expect(pacer.learned).toBeCloseTo(Math.min(cut * 1.1, 0.9 * pacer.ceiling!));
    expect(pacer.learned).toBeGreaterThan(cut);
  });

  it('does not grow while it holds nothing back (the harvest is slower than the rate)', () => {
    const { pacer, clock } = clocked({ patienceMs: 1000 });
    answer(pacer, clock, 20, 50);
    pacer.pushback(pacer.send(), 429, 1000);
    clock.t += 1000;
    answer(pacer, clock, 30, 200); // 5 a second, under the learned 10
    expect(pacer.learned).toBe(10);
  });
});
