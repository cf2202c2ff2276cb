import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { groupBySubject } from '../../src/serialize/groupBySubject.js';

const { namedNode, literal, quad, blankNode } = DataFactory;

describe('groupBySubject', () => {
  it('groups subjects that come back (the first one as the same term or an equal one) in order of appearance', () => {
    const work = namedNode('http://x.org/work');
    const author = namedNode('http://x.org/author');
    const p = (name: string) => namedNode(`http://x.org/${name}`);
    const groups = groupBySubject([
      quad(work, p('a'), literal('1')),
      quad(author, p('b'), literal('2')),
      quad(work, p('c'), literal('3')),
      quad(blankNode('x'), p('a'), literal('4')),
      quad(namedNode('http://x.org/work'), p('a'), literal('5')),
      quad(namedNode('http://x.org/author'), p('b'), literal('6')),
      quad(work, p('c'), literal('7')),
    ]);
    expect(groups.map((g) => g.subject.value)).toEqual(['http://x.org/work', 'http://x.org/author', 'x']);
    const [first, second] = groups;
    expect(first!.list.map((prop) => [prop.predicate.value, prop.objects.map((o) => o.value)])).toEqual([
      ['http://x.org/a', ['1', '5']],
      ['http://x.org/c', ['3', '7']],
    ]);
    expect(second!.list.map((prop) => prop.objects.map((o) => o.value))).toEqual([['2', '6']]);
  });

  it('finds a predicate that comes back by its IRI, as the same term or an equal one, after others', () => {
    const s = namedNode('http://x.org/s');
    const p = (name: string) => namedNode(`http://x.org/${name}`);
    const a = p('a');
    const [group] = groupBySubject([
      quad(s, a, literal('1')),
      quad(s, p('b'), literal('2')),
      quad(s, a, literal('3')),
      quad(s, p('b'), literal('4')),
      quad(s, p('c'), literal('5')),
      quad(s, p('a'), literal('6')),
    ]);
    expect(group!.list.map((prop) => [prop.predicate.value, prop.objects.map((o) => o.value)])).toEqual([
      ['http://x.org/a', ['1', '3', '6']],
      ['http://x.org/b', ['2', '4']],
      ['http://x.org/c', ['5']],
    ]);
  });
});
