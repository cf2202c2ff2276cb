// The adaptive concurrency of a harvest, driven by fake events: no network, no clock.
import { describe, expect, it } from 'vitest';
import { ConcurrencyController, type RequestTicket } from '../../src/client/ConcurrencyController.js';

/** Puts requests in flight until the limit is full; returns their tickets. */
function fill(c: ConcurrencyController): RequestTicket[] {
  const tickets: RequestTicket[] = [];
  while (c.hasRoom()) tickets.push(c.begin());
  return tickets;
}

/** One round: the limit full, the harvest waits on the first answer, then every request ends cleanly. */
function waitedRound(c: ConcurrencyController): void {
  const tickets = fill(c);
  c.waited();
  for (const t of tickets) c.end(t);
}

/** `n` requests answered without pushback, one at a time. */
function cleanAnswers(c: ConcurrencyController, n: number): void {
  for (let i = 0; i < n; i++) c.end(c.begin());
}

/** Grows `c` to `limit` with waited rounds. */
function growTo(c: ConcurrencyController, limit: number): void {
  for (let i = 0; i < 100 && c.limit < limit; i++) waitedRound(c);
  expect(c.limit).toBe(limit);
}

describe('ConcurrencyController', () => {
  it('starts at 2 and grows by one each time the harvest waits on the network with the limit full, up to its max', () => {
    const c = new ConcurrencyController({ max: 5 });
    expect(c.limit).toBe(2);
    waitedRound(c);
    expect(c.limit).toBe(3);
    waitedRound(c);
    expect(c.limit).toBe(4);
    for (let i = 0; i < 10; i++) waitedRound(c);
    expect(c.limit).toBe(5);
    expect(c.peak).toBe(5);
  });

  it('does not grow when the harvest does not wait (it is busy with the pages: CPU-bound)', () => {
    const c = new ConcurrencyController();
    for (let i = 0; i < 10; i++) {
      const tickets = fill(c);
      for (const t of tickets) c.end(t); // answers came before they were wanted
    }
    expect(c.limit).toBe(2);
  });

  it('does not grow when fewer requests than the limit are in flight (the limit holds nothing back)', () => {
    const c = new ConcurrencyController();
    const t = c.begin();
    c.waited();
    c.end(t);
    expect(c.limit).toBe(2);
  });

  it("does not grow while a request in flight was held back by the client's rate limit (never past --rate)", () => {
    const c = new ConcurrencyController();
    const tickets = fill(c);
    c.observer(tickets[0]!).onRateWait!(100);
    c.observer(tickets[0]!).onRateWait!(100); // its retry, held again: still one request
    c.waited();
    expect(c.limit).toBe(2);
    c.end(tickets[0]!);
    const next = c.begin(); // the limit full again, no request held back: the network is what the harvest waits on
    c.waited();
    expect(c.limit).toBe(3);
    c.end(tickets[1]!);
    c.end(next);
    expect(c.active).toBe(0);
  });

  it('halves on a 429 or a 5xx, once for the requests of one round', () => {
    const c = new ConcurrencyController();
    growTo(c, 8);
    const round = fill(c);
    c.observer(round[0]!).onPushback!(429);
    expect(c.limit).toBe(4);
    // the other requests sent before the halving are answered 429/503 too: no second halving for them
    c.observer(round[1]!).onPushback!(503);
    c.pushback(round[2]!);
    expect(c.limit).toBe(4);
    for (const t of round) c.end(t);
    // a request sent after the halving that draws a 5xx halves again
    const later = c.begin();
    c.observer(later).onPushback!(503);
    expect(c.limit).toBe(2);
    expect(c.halvings).toBe(2);
    // never below one
    c.end(later);
    c.pushback(c.begin());
    c.pushback(c.begin());
    expect(c.limit).toBe(1);
  });

  it('after a pushback, grows back quickly below the level that drew it, past it only after `patience` clean answers, a level at a time', () => {
    const c = new ConcurrencyController({ patience: 100 });
    growTo(c, 8);
    const round = fill(c);
    for (const t of round) c.pushback(t); // the whole round answered 429
    for (const t of round) c.end(t);
    expect(c.limit).toBe(4);
    growTo(c, 7); // below the level that drew the pushback (8): one per wait; 4 + 5 + 6 = 15 clean answers
    waitedRound(c);
    expect(c.limit).toBe(7); // 15 clean answers: fewer than the patience
    cleanAnswers(c, 100 - 15 - 7);
    waitedRound(c);
    expect(c.limit).toBe(8);
    waitedRound(c);
    expect(c.limit).toBe(8); // the next level waits for the patience again
    cleanAnswers(c, 100);
    waitedRound(c);
    expect(c.limit).toBe(9);
  });

  it('doubles its patience when a level tried past the ceiling draws a pushback, and halves it back when one holds', () => {
    const c = new ConcurrencyController({ patience: 10, initial: 4 });
    const first = c.begin();
    c.pushback(first); // 4 -> 2 below a ceiling of 4; not a level tried: patience stays 10
    c.end(first);
    expect(c.limit).toBe(2);
    growTo(c, 3); // 2 clean answers (the pushed back one is not clean)
    cleanAnswers(c, 7);
    waitedRound(c);
    expect(c.limit).toBe(3); // 9 clean answers
    cleanAnswers(c, 1);
    waitedRound(c);
    expect(c.limit).toBe(4); // tried past the ceiling
    const t = c.begin();
    c.pushback(t); // the level tried drew a pushback: 4 -> 2, patience 20
    c.end(t);
    expect(c.halvings).toBe(2);
    growTo(c, 3); // 2 clean answers
    cleanAnswers(c, 17);
    waitedRound(c);
    expect(c.limit).toBe(3); // 19 clean answers
    cleanAnswers(c, 1);
    waitedRound(c);
    expect(c.limit).toBe(4); // tried again, patience 20
    cleanAnswers(c, 17); // + 4 of the round above: it held for 21 answers
    waitedRound(c);
    expect(c.limit).toBe(5); // patience back to 10
    cleanAnswers(c, 5);
    waitedRound(c);
    expect(c.limit).toBe(5); // 5 + 5 answers before the wait
    waitedRound(c);
    expect(c.limit).toBe(6);
    // a 5xx on the level being tried halves too, but leaves the patience: server trouble is no rate limit
    const failed = c.begin();
    c.observer(failed).onPushback!(503);
    c.end(failed);
    expect(c.limit).toBe(3);
    growTo(c, 5); // fast, below the level that drew the 5xx
    cleanAnswers(c, 10 - 3 - 4);
    waitedRound(c);
    expect(c.limit).toBe(6); // after 10 clean answers, not 20
  });

  it('with a fixed limit (--concurrency N) never changes, whatever happens', () => {
    const c = new ConcurrencyController({ fixed: 3 });
    for (let i = 0; i < 5; i++) waitedRound(c);
    expect(c.limit).toBe(3);
    const round = fill(c);
    expect(round).toHaveLength(3);
    c.pushback(round[0]!);
    c.observer(round[1]!).onPushback!(503);
    expect(c.limit).toBe(3);
    expect(c.halvings).toBe(0);
  });

  it('counts tracked requests in flight until they end, and notes a wait only for an answer that has not come', async () => {
    const c = new ConcurrencyController();
    let release!: (v: string) => void;
    const slow = c.track(() => new Promise<string>((r) => (release = r)));
    const other = c.track(async () => 'x');
    expect(c.active).toBe(2);
    await other.promise;
    expect(other.settled).toBe(true);
    expect(c.active).toBe(1);
    // answer of a settled request: no wait, no growth
    await c.answer(other);
    expect(c.limit).toBe(2);
    const third = c.track(() => new Promise<string>(() => undefined));
    // the slow one is awaited while the limit (2) is full: a wait on the network
    const answered = c.answer(slow);
    expect(c.limit).toBe(3);
    release('done');
    await expect(answered).resolves.toBe('done');
    expect(c.active).toBe(1);
    void third;
    const failing = c.track(async () => {
      throw new Error('boom');
    });
    await expect(failing.promise).rejects.toThrow('boom');
    expect(c.active).toBe(1);
  });
});
