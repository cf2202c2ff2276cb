import { describe, expect, it } from 'vitest';
import { StatusLine } from '../../../src/cli/progress/StatusLine.js';

function line(tty: boolean, columns = 40) {
  let out = '';
  const status = new StatusLine({ write: (t) => (out += t), tty, columns: () => columns });
  return { status, out: () => out };
}

describe('StatusLine', () => {
  it('draws in place on a terminal, cut to the width less one column', () => {
    const { status, out } = line(true, 30);
    status.draw('a'.repeat(40));
    expect(out()).toBe(`\r${'a'.repeat(29)}\x1b[K`);
  });

  it('writes a line of its own: the bar cleared before and drawn again after', () => {
    const { status, out } = line(true);
    status.draw('[###] 1/3');
    status.line('warning: something');
    expect(out()).toBe('\r[###] 1/3\x1b[K\r\x1b[Kwarning: something\n[###] 1/3\x1b[K');
  });

  it('clear removes the bar; stop keeps it and moves to a new line, then draws nothing more', () => {
    const cleared = line(true);
    cleared.status.draw('bar');
    cleared.status.clear();
    expect(cleared.out()).toBe('\rbar\x1b[K\r\x1b[K');
    const stopped = line(true);
    stopped.status.draw('bar');
    stopped.status.stop();
    stopped.status.draw('bar again');
    stopped.status.line('scholarly-rdf: error [aborted]: interrupted');
    expect(stopped.out()).toBe('\rbar\x1b[K\nscholarly-rdf: error [aborted]: interrupted\n');
  });

  it('off a terminal draws nothing and writes lines as they come', () => {
    const { status, out } = line(false);
    status.draw('bar');
    status.line('a line');
    status.stop();
    expect(out()).toBe('a line\n');
  });

  it('takes 80 columns when the terminal does not say', () => {
    const status = new StatusLine({ write: () => undefined, tty: true, columns: () => undefined });
    expect(status.width).toBe(79);
  });
});
