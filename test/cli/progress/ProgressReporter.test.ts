import { describe, expect, it } from 'vitest';
import { ProgressReporter } from '../../../src/cli/progress/ProgressReporter.js';
import { StatusLine } from '../../../src/cli/progress/StatusLine.js';
import { formatBytes, formatDuration, timestamp } from '../../../src/cli/progress/format.js';

function reporter(tty: boolean, unit: 'records' | 'bytes', logFirst = false) {
  let out = '';
  let clock = Date.UTC(2025, 10, 25, 12, 0, 0);
  const status = new StatusLine({ write: (t) => (out += t), tty, columns: () => 100 });
  const r = new ProgressReporter({ label: 'validate', status, unit, logFirst, now: () => clock });
  return { r, out: () => out, tick: (ms: number) => (clock += ms) };
}

describe('ProgressReporter', () => {
  it('draws a bar with done/total, percentage, rate and, after the warm-up, the ETA', () => {
    const { r, out, tick } = reporter(true, 'bytes');
    const mib = 1024 * 1024;
    r.update({ done: 0, total: 100 * mib, elapsedMs: 0, extra: '0 records' });
    expect(out()).toMatch(/^\r\[\.{10,40}\] 0 B\/100 MiB 0%  ETA --:--  0 records\x1b\[K$/);
    for (let s = 1; s <= 6; s++) {
      tick(1000);
      r.update({ done: s * 10 * mib, total: 100 * mib, elapsedMs: s * 1000, extra: `${s * 100} records` });
    }
    const last = out().split('\r').pop()!;
    expect(last).toMatch(/^\[#+\.+\] 60\.0 MiB\/100 MiB 60%  10\.0 MiB\/s  ETA 0:04  600 records\x1b\[K$/);
  });

  it('redraws at most every 100 ms unless told', () => {
    const { r, out } = reporter(true, 'records');
    r.update({ done: 1, total: 10, elapsedMs: 0 });
    r.update({ done: 2, total: 10, elapsedMs: 10 });
    r.update({ done: 10, total: 10, elapsedMs: 20, force: true });
    expect(
      out()
        .split('\r')
        .filter((s) => s.startsWith('[')),
    ).toHaveLength(2);
  });

  it('off a terminal writes timestamped lines every 5 s, the first after 5 s (or at once with logFirst), the ETA when known', () => {
    const { r, out, tick } = reporter(false, 'records');
    r.update({ done: 10, total: 100, elapsedMs: 0 });
    expect(out()).toBe('');
    tick(5000);
    r.update({ done: 20, total: 100, elapsedMs: 5000 });
    expect(out()).toBe('2025-11-25T12:00:05Z validate: 20/100 records 20%  2.0 rec/s\n');
    tick(1000);
    r.update({ done: 30, total: 100, elapsedMs: 6000 });
    expect(out().split('\n')).toHaveLength(2); // not yet
    tick(4000);
    r.update({ done: 40, total: 100, elapsedMs: 10_000 });
    expect(out().split('\n')[1]).toBe('2025-11-25T12:00:10Z validate: 40/100 records 40%  3.0 rec/s  ETA 0:20');
    const first = reporter(false, 'records', true);
    first.r.update({ done: 10, total: null, elapsedMs: 0, topic: 'window 2020-01-01..2020-12-31' });
    expect(first.out()).toBe('2025-11-25T12:00:00Z validate: 10 records  window 2020-01-01..2020-12-31\n');
  });

  it('off a terminal also writes a line when the topic changes (a new date window)', () => {
    const { r, out } = reporter(false, 'records', true);
    r.update({ done: 10, total: 50, elapsedMs: 0, topic: 'window a' });
    r.update({ done: 20, total: 50, elapsedMs: 100, topic: 'window a' });
    r.update({ done: 30, total: 50, elapsedMs: 200, topic: 'window b' });
    expect(
      out()
        .trim()
        .split('\n')
        .map((l) => l.replace(/^\S+ /, '')),
    ).toEqual(['validate: 10/50 records 20%  window a', 'validate: 30/50 records 60%  100.0 rec/s  window b']);
  });

  it('shows no bar without a total, only what was done and the rate', () => {
    const { r, out, tick } = reporter(true, 'bytes');
    r.update({ done: 2048, total: null, elapsedMs: 0 });
    tick(1000);
    r.update({ done: 4096, total: null, elapsedMs: 1000 });
    expect(out().split('\r').pop()).toBe('4.00 KiB  2.00 KiB/s\x1b[K');
  });
});

describe('formats', () => {
  it('formats sizes, durations and timestamps', () => {
    expect([0, 1023, 1024, 10 * 1024 + 300, 999 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.00 KiB',
      '10.3 KiB',
      '999 MiB',
      '3.00 GiB',
    ]);
    expect([0, 59_400, 61_000, 3_600_000 + 61_000].map(formatDuration)).toEqual(['0:00', '0:59', '1:01', '1:01:01']);
    expect(timestamp(Date.UTC(2025, 0, 2, 3, 4, 5, 678))).toBe('2025-01-02T03:04:05Z');
  });
});

describe('ProgressReporter on a narrow terminal', () => {
  it("keeps the command's own figures in sight: the bar goes first, then the rate, then the ETA (load's 'loaded' on 80 columns)", () => {
    for (const columns of [120, 80, 70, 40]) {
      let out = '';
      let clock = 0;
      const status = new StatusLine({ write: (t) => (out += t), tty: true, columns: () => columns });
      const r = new ProgressReporter({ label: 'load', status, unit: 'bytes', now: () => clock });
      const gib = 1024 ** 3;
      for (let s = 0; s <= 6; s++) {
        clock = s * 1000;
        r.update({
          done: s * 100 * 1024 ** 2,
          total: 2 * gib,
          elapsedMs: s * 1000,
          extra: `${(s * 812_345).toLocaleString('en-US')} triples read, ${(s * 800_000).toLocaleString('en-US')} loaded`,
        });
      }
      const last = out.split('\r').pop()!.replace('\x1b[K', '');
      expect(last.length, `${columns}: ${last}`).toBeLessThanOrEqual(columns - 1);
      expect(last).toMatch(/^(\[[#.]+\] )?600 MiB\/2\.00 GiB 29%/);
      // Narrower than the amount and the figures together, the line is cut (to the width, never wrapped).
      if (columns >= 70) expect(last, `${columns}`).toContain('4,800,000 loaded');
      if (columns === 120) expect(last).toMatch(/^\[#+\.+\] .*ETA .*loaded$/);
    }
  });
});
