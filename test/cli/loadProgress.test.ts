/** The progress of `load --bulk` and `load --upsert` on a terminal: what their bars say. */
import { describe, expect, it } from 'vitest';
import { bulkProgressReporter, upsertProgressReporter } from '../../src/cli/progress/loadProgressReporter.js';
import { StatusLine } from '../../src/cli/progress/StatusLine.js';

function terminal(): { status: StatusLine; text: () => string } {
  let out = '';
  return { status: new StatusLine({ write: (t) => (out += t), tty: true, columns: () => 200 }), text: () => out };
}

describe('load progress bars', () => {
  it('--bulk: the bytes of the files done over their total, the files loaded, failed and loading', () => {
    const t = terminal();
    bulkProgressReporter(t)({
      filesTotal: 5,
      filesLoaded: 3,
      filesFailed: 1,
      filesLoading: 1,
      bytesDone: 2048,
      totalBytes: 4096,
      elapsedMs: 1000,
    });
    expect(t.text()).toContain('50%');
    expect(t.text()).toContain('3/5 files loaded, 1 failed, 1 loading');
  });

  it('--upsert: the record graphs done, the batch (and whether an earlier run did it), the triples', () => {
    const t = terminal();
    upsertProgressReporter(t)({
      batch: 2,
      graphs: 200,
      triples: 9000,
      skipped: true,
      totalGraphs: 400,
      totalTriples: 18000,
      elapsedMs: 1000,
    });
    expect(t.text()).toContain('400 records');
    expect(t.text()).toContain('batch 2 (done before), 18,000 triples');
  });
});
