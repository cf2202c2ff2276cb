import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { RecordDataset } from '../../../src/shacl/shaclEngine/RecordDataset.js';

const { namedNode, literal, quad } = DataFactory;
const s = namedNode('urn:s');
const t = namedNode('urn:t');
const p = namedNode('urn:p');
const q = namedNode('urn:q');

describe('RecordDataset', () => {
  const ds = () =>
    new RecordDataset([
      quad(s, p, literal('a')),
      quad(s, q, t),
      quad(t, p, literal('a')),
      quad(t, p, literal('a', 'en')),
    ]);

  it('matches by subject, predicate, object and their combinations', () => {
    expect(ds().match(s).size).toBe(2);
    expect(ds().match(s, p).size).toBe(1);
    expect(ds().match(null, p).size).toBe(3);
    expect(ds().match(null, null, literal('a')).size).toBe(2);
    expect(ds().match(null, null, t).size).toBe(1);
    expect(ds().match(t, p, literal('a', 'en')).size).toBe(1);
    expect(ds().match(null, q, literal('a')).size).toBe(0);
    expect(ds().match().size).toBe(4);
    // Literal objects are looked for apart from the index of node objects; both after one another.
    const d = ds();
    expect(d.match(null, null, t).size).toBe(1);
    expect(d.match(null, p, literal('a', 'en')).size).toBe(1);
    expect(d.match(null, null, literal('a', 'de')).size).toBe(0);
    expect(d.match(null, null, t).size).toBe(1);
  });

  it('adds, has and deletes', () => {
    const d = ds();
    d.add(quad(s, p, literal('a')));
    expect(d.size).toBe(4);
    d.add(quad(s, p, literal('b')));
    expect(d.has(quad(s, p, literal('b')))).toBe(true);
    expect(d.match(s, p).size).toBe(2);
    d.delete(quad(s, p, literal('b')));
    expect(d.has(quad(s, p, literal('b')))).toBe(false);
    expect([...d]).toHaveLength(4);
  });
});

describe('RecordDataset answers', () => {
  it('are datasets of their own: changing an answer changes neither the dataset nor later answers', () => {
    const d = new RecordDataset([quad(s, p, literal('a')), quad(s, q, t)]);
    const answer = d.match(s, p);
    answer.add(quad(s, p, literal('b')));
    answer.delete(quad(s, p, literal('a')));
    expect([...answer].map((x) => x.object.value)).toEqual(['b']);
    expect(d.match(s, p).size).toBe(1);
    expect(d.size).toBe(2);
    expect(d.has(quad(s, p, literal('b')))).toBe(false);
  });

  it('follow changes of the dataset', () => {
    const d = new RecordDataset([quad(s, p, literal('a'))]);
    expect(d.match(s, p).size).toBe(1);
    d.add(quad(s, p, literal('b')));
    expect(d.match(s, p).size).toBe(2);
    expect(d.match(null, p, literal('b')).size).toBe(1);
    d.delete(quad(s, p, literal('a')));
    expect(d.match(null, p).size).toBe(1);
  });
});

describe('RecordDataset.match answers', () => {
  it('are datasets of their own: adding to an answer, or to the dataset, changes nothing of the other', () => {
    const q = (s: string, o: string) => quad(namedNode(`urn:${s}`), namedNode('urn:p'), literal(o));
    const dataset = new RecordDataset([q('a', '1'), q('a', '2'), q('b', '3')]);
    const ofA = dataset.match(namedNode('urn:a'));
    const none = dataset.match(namedNode('urn:c'), namedNode('urn:p'));
    const all = dataset.match();
    ofA.add(q('a', '4'));
    none.add(q('c', '5'));
    dataset.add(q('a', '6'));
    expect([...ofA].map((x) => x.object.value)).toEqual(['1', '2', '4']);
    expect([...none].map((x) => x.object.value)).toEqual(['5']);
    expect([...all].map((x) => x.object.value)).toEqual(['1', '2', '3']);
    expect([...dataset.match(namedNode('urn:a'))].map((x) => x.object.value)).toEqual(['1', '2', '6']);
    expect(dataset.match(namedNode('urn:c'), namedNode('urn:p')).size).toBe(0);
  });
});

describe('RecordDataset subject and predicate questions', () => {
  it('are answered in the order of the dataset, whatever the other predicates around, before and after changes', () => {
    const o = (v: string) => literal(v);
    const d = new RecordDataset([
      quad(s, p, o('1')),
      quad(s, q, o('2')),
      quad(t, p, o('3')),
      quad(s, p, o('4')),
      quad(s, q, o('5')),
    ]);
    const objects = (subject: typeof s, predicate: typeof p) =>
      [...d.match(subject, predicate)].map((x) => x.object.value);
    expect(objects(s, p)).toEqual(['1', '4']);
    expect(objects(s, q)).toEqual(['2', '5']);
    expect(objects(t, p)).toEqual(['3']);
    expect(objects(t, q)).toEqual([]);
    // The same question again, once the answer has changed: the dataset's own quads.
    d.match(s, p).add(quad(s, p, o('x')));
    expect(objects(s, p)).toEqual(['1', '4']);
    d.add(quad(s, p, o('6')));
    d.delete(quad(s, p, o('1')));
    expect(objects(s, p)).toEqual(['4', '6']);
    expect(objects(s, q)).toEqual(['2', '5']);
  });
});

describe('RecordDataset predicate questions', () => {
  it('are answered in the order of the dataset, as datasets of their own, before and after changes', () => {
    const d = new RecordDataset([quad(s, p, literal('1')), quad(t, q, s), quad(t, p, literal('2')), quad(s, q, t)]);
    const values = (predicate: typeof p) =>
      [...d.match(null, predicate)].map((x) => `${x.subject.value} ${x.object.value}`);
    expect(values(p)).toEqual(['urn:s 1', 'urn:t 2']);
    expect(values(q)).toEqual(['urn:t urn:s', 'urn:s urn:t']);
    expect(d.withPredicateOnly(namedNode('urn:none'))).toEqual([]);
    // An answer changed: the dataset's own quads stay.
    d.match(null, p).add(quad(t, p, literal('x')));
    expect(values(p)).toEqual(['urn:s 1', 'urn:t 2']);
    d.add(quad(t, p, literal('3')));
    d.delete(quad(s, p, literal('1')));
    expect(values(p)).toEqual(['urn:t 2', 'urn:t 3']);
    expect(d.withPredicateObject(p, literal('3')).map((x) => x.subject.value)).toEqual(['urn:t']);
    expect(d.withSubject(t).map((x) => x.predicate.value)).toEqual(['urn:q', 'urn:p', 'urn:p']);
  });
});
