import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/http/RateLimiter.js';

describe('RateLimiter', () => {
  it('hands out slots 1000 / rate ms apart and says how long each request waits for its slot', () => {
    let now = 1_000;
    const limiter = new RateLimiter(10, () => now);
    expect([limiter.reserve(), limiter.reserve(), limiter.reserve()]).toEqual([0, 100, 200]);
    now += 250; // the next free slot is at 300 ms after the start
    expect(limiter.reserve()).toBe(50);
    now += 1_000; // idle: a slot is free at once
    expect(limiter.reserve()).toBe(0);
  });
});
