import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { VirtuosoIsql } from '../../src/store/VirtuosoIsql.js';
import { FAKE_PASSWORD, fakeIsql } from './virtuosoBulkFake.js';

describe('VirtuosoIsql', () => {
  it('answers statements in order over one session: rows, or the error the server printed', async () => {
    const fake = fakeIsql();
    const isql = await VirtuosoIsql.open({ command: fake.command, password: FAKE_PASSWORD, port: 1111 });
    try {
      const [a, b] = await Promise.all([
        isql.query("ld_add('/d/a.nt', 'https://ex.org/g');"),
        isql.query("select x from DB.DBA.load_list where ll_graph = 'https://ex.org/g';"),
      ]);
      expect(a).toEqual([]);
      expect(b).toEqual(['/d/a.nt\t0\t-']);
      const refused = await isql.run('nonsense;');
      expect(refused.error?.message).toContain('the fake isql does not know');
      await expect(isql.query('nonsense;')).rejects.toMatchObject({
        code: 'http-status',
        message: expect.stringContaining('refused `nonsense;`'),
      });
    } finally {
      await isql.close();
    }
    expect(fake.statements().filter((s) => !s.startsWith("select 'scholarly"))).toEqual([
      "select 'R:ok';",
      "ld_add('/d/a.nt', 'https://ex.org/g');",
      "select x from DB.DBA.load_list where ll_graph = 'https://ex.org/g';",
      'nonsense;',
      'nonsense;',
    ]);
  });

  it('a refused login is auth; the password is in no message (the fake echoes it)', async () => {
    const fake = fakeIsql();
    const err = await VirtuosoIsql.open({ command: fake.command, password: 'Wrong-Password-123' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolkitError);
    expect((err as ToolkitError).code).toBe('auth');
    expect((err as ToolkitError).message).toContain('CL034: Bad login');
    expect((err as ToolkitError).message).toContain('4 failed logins');
    expect(JSON.stringify({ m: (err as Error).message, d: (err as ToolkitError).details })).not.toContain(
      'Wrong-Password-123',
    );
  });

  it('a missing client is a usage error naming it and the package', async () => {
    await expect(VirtuosoIsql.open({ command: '/nonexistent/isql-vt', password: 'x' })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(
        '/nonexistent/isql-vt` was not found (apt-get install virtuoso-opensource-7-bin',
      ),
    });
  });

  it('a client that dies is network, naming how it ended; later statements fail too', async () => {
    const isql = await VirtuosoIsql.open({ command: 'sh', password: FAKE_PASSWORD, host: '-c', port: 0 }).catch(
      (e: unknown) => e,
    );
    expect(isql).toMatchObject({
      code: 'network',
      message: expect.stringContaining('the isql session with Virtuoso at -c:0 ended'),
    });
  });
});
