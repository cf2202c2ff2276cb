import { describe, expect, it } from 'vitest';
import { classifyPages } from '../../src/mapping/classifyPages.js';

const inIssue = { onlineFirst: false };

describe('classifyPages', () => {
  it('start and end → split, with the page count when numeric', () => {
    expect(classifyPages('1', '16', inIssue)).toEqual({ kind: 'split', start: '1', end: '16', numPages: 16 });
    expect(classifyPages('iv', 'xii', inIssue)).toEqual({ kind: 'split', start: 'iv', end: 'xii' });
    expect(classifyPages('20', '3', inIssue)).toEqual({ kind: 'split', start: '20', end: '3' });
  });

  it('one free-text range or list → pagination', () => {
    expect(classifyPages('1-6, 9', undefined, inIssue)).toEqual({ kind: 'pagination', text: '1-6, 9' });
    expect(classifyPages('123–130', '', inIssue)).toEqual({ kind: 'pagination', text: '123–130' });
    expect(classifyPages('S15 S17', undefined, inIssue)).toEqual({ kind: 'pagination', text: 'S15 S17' });
    expect(classifyPages('1-6', '6', inIssue)).toEqual({ kind: 'pagination', text: '1-6' });
  });

  it('a lone article number → start only', () => {
    expect(classifyPages('e1234', '', inIssue)).toEqual({ kind: 'start', start: 'e1234' });
    expect(classifyPages('S15', undefined, inIssue)).toEqual({ kind: 'start', start: 'S15' });
  });

  it('"1" alone on an online-first record is a placeholder; in an issue it is a page', () => {
    expect(classifyPages('1', undefined, { onlineFirst: true })).toEqual({ kind: 'placeholder', value: '1' });
    expect(classifyPages('1', undefined, inIssue)).toEqual({ kind: 'start', start: '1' });
  });

  it('nothing → none; an end alone → end', () => {
    expect(classifyPages('', '  ', inIssue)).toEqual({ kind: 'none' });
    expect(classifyPages(undefined, '12', inIssue)).toEqual({ kind: 'end', end: '12' });
  });
});
