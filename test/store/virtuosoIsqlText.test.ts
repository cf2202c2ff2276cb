import { describe, expect, it } from 'vitest';
import {
  codeOfIsqlError,
  isAccessDenied,
  markerOf,
  parseLoadListRow,
  plainIsqlMessage,
  readIsqlAnswer,
  sparqlIri,
  sqlString,
} from '../../src/store/virtuosoIsqlText.js';

describe('sqlString', () => {
  it('doubles quotes and escapes backslashes (Virtuoso reads \\ escapes in literals)', () => {
    expect(sqlString("it's")).toBe("'it''s'");
    expect(sqlString('a\\b')).toBe("'a\\\\b'");
    expect(sqlString('/data/dump.00001.nt.gz')).toBe("'/data/dump.00001.nt.gz'");
  });

  it('refuses a line break or another control character (a statement is one line), naming what it is', () => {
    expect(() => sqlString('a\nb', 'a file name')).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('a file name') }),
    );
    expect(() => sqlString('a\tb')).toThrow(expect.objectContaining({ code: 'usage' }));
  });
});

describe('sparqlIri', () => {
  it('writes an IRI in angle brackets and refuses what would break out of them', () => {
    expect(sparqlIri('https://ex.org/g')).toBe('<https://ex.org/g>');
    for (const bad of ['', 'a b', 'x>y', 'x<y', 'a"b', 'a\\b', 'a{b'])
      expect(() => sparqlIri(bad)).toThrow(expect.objectContaining({ code: 'usage' }));
  });
});

describe('readIsqlAnswer', () => {
  it('keeps the rows that start with the prefix (padding trimmed) and ignores the rest', () => {
    expect(readIsqlAnswer(['', 'R:21003        ', 'noise', 'R:a\tb\tc  '])).toEqual({ rows: ['21003', 'a\tb\tc'] });
  });

  it('reads the first error block: SQL state and message (the echoed statement is not a row)', () => {
    const lines = [
      '',
      "*** Error 42000: [Virtuoso Driver][Virtuoso Server]FA003: Access to '/etc/x.nt' is denied due to access control in ini file",
      'at line 1 of Top-Level:',
      "select concat('R:', x)",
    ];
    const answer = readIsqlAnswer(lines);
    expect(answer.rows).toEqual([]);
    expect(answer.error).toEqual({
      state: '42000',
      message:
        "[Virtuoso Driver][Virtuoso Server]FA003: Access to '/etc/x.nt' is denied due to access control in ini file",
    });
    expect(isAccessDenied(answer.error)).toBe(true);
    expect(plainIsqlMessage(answer.error!.message)).toBe(
      "FA003: Access to '/etc/x.nt' is denied due to access control in ini file",
    );
  });

  it('the marker of statement n is a select of a line the reader waits for', () => {
    expect(markerOf(7)).toEqual({ statement: "select 'scholarly-rdf-isql-end-7';", line: 'scholarly-rdf-isql-end-7' });
  });
});

describe('codeOfIsqlError', () => {
  it('a refused login is auth, a failed connection network, anything else the server refused http-status', () => {
    expect(codeOfIsqlError({ state: '28000', message: '[Virtuoso Driver]CL034: Bad login' })).toBe('auth');
    expect(
      codeOfIsqlError({
        state: '08001',
        message: '[Virtuoso Driver]CL033: Connect failed to 127.0.0.1:1 = 127.0.0.1:1.',
      }),
    ).toBe('network');
    expect(codeOfIsqlError({ state: '42001', message: 'SR185: Undefined procedure DB.DBA.NOSUCH.' })).toBe(
      'http-status',
    );
    expect(isAccessDenied({ message: 'SR185: Undefined procedure' })).toBe(false);
  });
});

describe('parseLoadListRow', () => {
  it('reads file, state and error ("-" is none)', () => {
    expect(parseLoadListRow('/d/a.nt\t2\t-')).toEqual({ file: '/d/a.nt', state: 2, error: null });
    expect(
      parseLoadListRow('/d/b.nt\t2\t37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line 2: syntax error'),
    ).toEqual({
      file: '/d/b.nt',
      state: 2,
      error: '37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line 2: syntax error',
    });
  });

  it('fails with bad-response on a row that is not one', () => {
    expect(() => parseLoadListRow('garbage')).toThrow(expect.objectContaining({ code: 'bad-response' }));
    expect(() => parseLoadListRow('/d/a.nt\tx\t-')).toThrow(expect.objectContaining({ code: 'bad-response' }));
  });
});
