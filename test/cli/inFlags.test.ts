import { describe, expect, it } from 'vitest';
import { inFlags } from '../../src/cli/inFlags.js';

describe('inFlags', () => {
  it('speaks of the flags where the library speaks of its options', () => {
    expect(inFlags('`graph` (one graph) and `graphPerRecord` (a graph each) do not go together')).toBe(
      '--graph (one graph) and --graph-per-record (a graph each) do not go together',
    );
    expect(inFlags('run again with `resume`; lower `pageSize`; check `baseUrl`')).toBe(
      'run again with --resume; lower --page-size; check --base-url',
    );
    expect(inFlags('add `metaPath`, or `statePath`, `credentials`, `output`')).toBe(
      'add --meta, or --state, --user/--password, -o',
    );
  });

  it('leaves other backticked text alone (a record value, a code span)', () => {
    expect(inFlags('title `doi:` and `notAnOption` kept')).toBe('title `doi:` and `notAnOption` kept');
  });
});
