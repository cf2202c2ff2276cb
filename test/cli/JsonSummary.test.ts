import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonSummary } from '../../src/cli/JsonSummary.js';
import { StatusLine } from '../../src/cli/progress/StatusLine.js';
import { ToolkitError } from '../../src/errors.js';

function summary() {
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const status = new StatusLine({ write: (t) => (err += t), tty: true, columns: () => 80 });
  return { json: new JsonSummary({ stdout }, status), status, out: () => out, err: () => err };
}

describe('JsonSummary', () => {
  it('prints nothing unless enabled', () => {
    const s = summary();
    s.json.set({ a: 1 });
    s.json.print(0);
    expect(s.out()).toBe('');
    expect(s.json.enabled).toBe(false);
  });

  it('prints one line, once: the command, the exit code, then the fields set', () => {
    const s = summary();
    s.json.enable('validate', 'stdout');
    s.json.set({ records: 3 });
    s.json.set({ conforms: false });
    s.json.print(1);
    s.json.print(1);
    expect(s.out()).toBe('{"command":"validate","exitCode":1,"records":3,"conforms":false}\n');
  });

  it('goes to stderr on a line of its own when stdout carries data', () => {
    const s = summary();
    s.json.enable('get', 'stderr');
    s.status.draw('[##..] bar');
    s.json.print(0);
    expect(s.out()).toBe('');
    expect(s.err()).toContain('\r\x1b[K{"command":"get","exitCode":0}\n');
  });

  it('adds the error: its code, message in flags, and the details a script may act on', () => {
    const s = summary();
    s.json.enable('export', 'stdout');
    const err = new ToolkitError('network down; run it with `resume`', 'network', {
      details: { statePath: '/x.state.json', next: 'resume', secret: 'k' },
    });
    s.json.print(5, err);
    expect(JSON.parse(s.out())).toEqual({
      command: 'export',
      exitCode: 5,
      error: {
        code: 'network',
        message: 'network down; run it with --resume',
        details: { statePath: '/x.state.json', next: 'resume' },
      },
    });
    const internal = summary();
    internal.json.enable('load', 'stdout');
    internal.json.print(70, new Error('boom'));
    expect(JSON.parse(internal.out()).error).toEqual({ code: 'internal', message: 'boom' });
  });
});
