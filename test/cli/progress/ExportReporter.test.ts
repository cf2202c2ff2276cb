import { describe, expect, it } from 'vitest';
import { ExportReporter, recordsDone } from '../../../src/cli/progress/ExportReporter.js';
import { StatusLine } from '../../../src/cli/progress/StatusLine.js';
import type { ExportProgress, ExportSummary } from '../../../src/export/exportOptions.js';

const counts = (records: number, extra: Partial<ExportProgress['counts']> = {}) => ({
  pages: 1,
  records,
  duplicates: 0,
  rejects: 0,
  triples: records * 10,
  retries: 0,
  ...extra,
});

function reporter(tty: boolean) {
  let out = '';
  let clock = Date.UTC(2025, 10, 25, 12, 0, 0);
  const status = new StatusLine({ write: (t) => (out += t), tty, columns: () => 120 });
  const r = new ExportReporter({ status, now: () => clock });
  return { r, out: () => out, tick: (ms: number) => (clock += ms) };
}

describe('ExportReporter', () => {
  it('counts the records written, rejected and dropped as repeats: the bar reaches the total', () => {
    expect(recordsDone({ counts: counts(90, { rejects: 4, duplicates: 6 }) })).toBe(100);
    const { r, out } = reporter(true);
    r.progress({ counts: counts(90, { rejects: 4, duplicates: 6 }), total: 100, elapsedMs: 1000, recordsThisRun: 100 });
    expect(out()).toMatch(/^\r\[#{40}\] 100\/100 records 100%  ETA --:--  retries 0\x1b\[K$/);
  });

  it('takes a total learnt apart (date windows) when the pages bring none', () => {
    const { r, out } = reporter(true);
    r.setTotal(200);
    r.progress({
      counts: counts(50),
      total: null,
      window: { from: '2020-01-01', to: '2020-12-31' },
      elapsedMs: 1000,
      recordsThisRun: 50,
    });
    expect(out()).toContain('50/200 records 25%');
  });

  it('off a terminal writes a timestamped line at the first page, then every few seconds and at each new window', () => {
    const { r, out, tick } = reporter(false);
    const window = { from: '2020-01-01', to: '2020-12-31' };
    r.progress({ counts: counts(10), total: 30, window, elapsedMs: 500, recordsThisRun: 10 });
    tick(1000);
    r.progress({ counts: counts(20), total: 30, window, elapsedMs: 1500, recordsThisRun: 20 });
    tick(1000);
    r.progress({
      counts: counts(30),
      total: 30,
      window: { from: '2021-01-01', to: '2021-12-31' },
      elapsedMs: 2500,
      recordsThisRun: 30,
    });
    expect(out().trim().split('\n')).toEqual([
      '2025-11-25T12:00:00Z export: 10/30 records 33%  retries 0  window 2020-01-01..2020-12-31',
      '2025-11-25T12:00:02Z export: 30/30 records 100%  10.0 rec/s  retries 0  window 2021-01-01..2021-12-31',
    ]);
  });

  it('writes warnings and the summary on lines of their own, the bar cleared', () => {
    const { r, out } = reporter(true);
    r.progress({ counts: counts(10), total: 20, elapsedMs: 1000, recordsThisRun: 10 });
    r.warn('rejected: a record');
    const summary: ExportSummary = {
      counts: counts(20, { distinctTriples: 164, distinctExact: false }),
      total: 20,
      resumed: true,
      alreadyComplete: false,
      elapsedMs: 2500,
      dataset: 'urn:x',
      statePath: undefined,
      format: 'turtle',
      conflicts: 0,
      conflictNotes: [],
    };
    r.summary(summary, 'out.ttl');
    const text = out();
    expect(text).toContain('\r\x1b[Kwarning: rejected: a record\n[');
    expect(
      text.endsWith(
        '\r\x1b[Kexport: 20 records, 200 statements (at most 164 distinct; shared entities repeat per record) from 1 pages to out.ttl in 2.5 s (resumed); 0 duplicates dropped, 0 rejects, 0 retries\n',
      ),
    ).toBe(true);
    const done = reporter(false);
    done.r.summary({ ...summary, alreadyComplete: true }, 'out.ttl');
    expect(done.out()).toBe('export: out.ttl is already complete (20 records); nothing to do\n');
  });
});
