import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JenaTdbTools, fileDoneOf, jenaMessage, toolError } from '../../src/store/JenaTdbTools.js';

const dir = mkdtempSync(join(tmpdir(), 'jena-tdb-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JenaTdbTools.find', () => {
  it("runs a folder of Jena's jars (or a distribution's lib/) with java, $JAVA_HOME's and $JVM_ARGS first", () => {
    const lib = join(dir, 'apache-jena-5.6.0', 'lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'jena-cmds-5.6.0.jar'), '');
    for (const path of [lib, join(dir, 'apache-jena-5.6.0')]) {
      const tools = JenaTdbTools.find(path, { JAVA_HOME: '/opt/jdk-17', JVM_ARGS: ' -Xmx4g  -Dx=1 ' });
      expect(tools.invocation('tdb2.tdbloader')).toEqual({
        program: '/opt/jdk-17/bin/java',
        args: ['-Xmx4g', '-Dx=1', '-cp', `${lib}/*`, 'tdb2.tdbloader'],
      });
      expect(tools.invocation('tdb2.tdbquery').args.at(-1)).toBe('tdb2.tdbquery');
    }
    expect(JenaTdbTools.find(lib, {}).invocation('tdb2.tdbupdate').program).toBe('java');
  });

  it('runs a tdb2.tdbloader script and its neighbours in the same folder, or on PATH', () => {
    const script = JenaTdbTools.find('/opt/apache-jena-5.6.0/bin/tdb2.tdbloader', {});
    expect(script.invocation('tdb2.tdbloader')).toEqual({
      program: '/opt/apache-jena-5.6.0/bin/tdb2.tdbloader',
      args: [],
    });
    expect(script.invocation('tdb2.tdbquery')).toEqual({
      program: '/opt/apache-jena-5.6.0/bin/tdb2.tdbquery',
      args: [],
    });
    expect(JenaTdbTools.find('tdb2.tdbloader', {}).invocation('tdb2.tdbupdate')).toEqual({
      program: 'tdb2.tdbupdate',
      args: [],
    });
  });

  it('refuses a folder without jena-cmds and a path that is no tdbloader (usage)', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(() => JenaTdbTools.find(empty, {})).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('holds no jena-cmds-*.jar') }),
    );
    expect(() => JenaTdbTools.find('/usr/bin/isql-vt', {})).toThrow(expect.objectContaining({ code: 'usage' }));
  });

  it('a program that is not there: usage, naming it and --tdbloader', async () => {
    const tools = JenaTdbTools.find(join(dir, 'nowhere', 'tdb2.tdbloader'), {});
    await expect(tools.run('tdb2.tdbloader', ['--help'])).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('--tdbloader'),
    });
  });

  it("counts with tdb2.tdbquery (its CSV answer), and reports its failure with Jena's message", async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'tdb2.tdbloader'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(
      join(bin, 'tdb2.tdbquery'),
      '#!/bin/sh\ncase "$2" in ok) printf "12:00:00 INFO  x :: y\\nn\\r\\n42\\r\\n" ;; *) echo "org.apache.jena.dboe.DBOpEnvException: Failed to get a lock: file=\'$2/tdb.lock\': held by process 7" >&2; exit 2 ;; esac\n',
      { mode: 0o755 },
    );
    const tools = JenaTdbTools.find(join(bin, 'tdb2.tdbloader'), {});
    expect(await tools.count('ok', 'https://example.org/g')).toBe(42);
    await expect(tools.count('/db', 'https://example.org/g')).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(
        /tdb2\.tdbquery failed \(the count of <https:\/\/example\.org\/g>, database \/db, exit code 2\): .*held by process 7 \(a running Fuseki.*stop it first/,
      ),
    });
  });
});

describe("reading tdb2.tdbloader's log", () => {
  it('the files done: End file of several, Finished of one, not the total', () => {
    expect(fileDoneOf('23:26:53 INFO  loader          ::   End file: a.nt (triples/quads = 2)')).toEqual({
      name: 'a.nt',
      tuples: 2,
    });
    expect(
      fileDoneOf('23:30:12 INFO  loader          :: Finished: s.00001.nt.gz: 9,130 tuples in 2.16s (Avg: 4,234)'),
    ).toEqual({ name: 's.00001.nt.gz', tuples: 9130 });
    expect(
      fileDoneOf('23:26:53 INFO  loader          :: Finished: 2 files: 4 tuples in 0.17s (Avg: 24)'),
    ).toBeUndefined();
    expect(fileDoneOf('23:26:54 INFO  loader          :: Finish - index GSPO')).toBeUndefined();
  });

  it("Jena's message: its ERROR lines, else an exception's first line, else the last lines", () => {
    const log =
      '23:27:02 INFO  loader :: Start: 2 files\n23:27:02 ERROR riot            :: [line: 3, col: 1 ] Broken token (newline in string)\norg.apache.jena.riot.RiotException: [line: 3, col: 1 ] Broken token\n\tat x.y(Z.java:1)\n';
    expect(jenaMessage(log)).toBe('[line: 3, col: 1 ] Broken token (newline in string)');
    expect(
      jenaMessage(
        'Exception in thread "main"\norg.apache.jena.dboe.DBOpEnvException: Failed to get a lock\n\tat a.b(C.java:2)\n',
      ),
    ).toBe('org.apache.jena.dboe.DBOpEnvException: Failed to get a lock');
    expect(jenaMessage('one\ntwo\n')).toBe('one; two');
    expect(
      toolError('tdb2.tdbupdate', '/db', { exitCode: 1, stdout: '', output: 'bad\n' }, 'emptying <g>').message,
    ).toBe("Jena's tdb2.tdbupdate failed (emptying <g>, database /db, exit code 1): bad");
  });
});
