import { describe, expect, it } from 'vitest';
import { ProgressTicker } from '../../src/tasks/ProgressTicker.js';

describe('ProgressTicker', () => {
  it('reports at most every interval, with the time since it was made, and always on flush', () => {
    let clock = 1000;
    const times: number[] = [];
    const ticker = new ProgressTicker((t) => times.push(t), { now: () => clock, intervalMs: 200 });
    ticker.tick();
    clock += 100;
    ticker.tick();
    clock += 100;
    ticker.tick();
    clock += 50;
    ticker.flush();
    expect(times).toEqual([0, 200, 250]);
  });

  it('does nothing without a callback', () => {
    const ticker = new ProgressTicker(undefined);
    expect(() => {
      ticker.tick();
      ticker.flush();
    }).not.toThrow();
  });
});
