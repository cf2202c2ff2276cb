import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import type { ValidationOutcome } from '../../src/shacl/RecordValidator.js';
import { validateNTriples, validateStream } from '../../src/shacl/validateStream.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { recordKeyOf } from '../../src/group/groupRecords.js';
import { comparableOutcome, fixtureQuads, recordDump } from './shapeCases.js';

let validator: RecordValidator;
beforeAll(async () => {
  validator = await RecordValidator.create();
});

const nt = recordDump;
const comparable = comparableOutcome;

describe('records whose nodes are blank nodes', () => {
  it('keeps the blank-node authors and list cells with their work, in both readers: each record as if validated whole', async () => {
    const RDF_FIRST = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#first';
    const RDF_REST = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#rest';
    // Authors without an ORCID iD and list cells as blank nodes (<...#author-doe-jane> -> _:r3author-doe-jane;
    // persons with an ORCID iD stay the iD's IRI); records 2 and 7 drop the second member of their list.
    const blank = (t: RDF.Term, i: number): RDF.Term =>
      t.termType === 'NamedNode' && /#(author-[^#]+|authors-[0-9a-f]{12})$/.test(t.value)
        ? DataFactory.blankNode(`r${i}${t.value.slice(t.value.indexOf('#') + 1).replace(/[^A-Za-z0-9-]/g, '-')}`)
        : t;
    const records = [...generateRecords(12, 5)].map((r, i) => {
      const quads = mapRecord(normalizeRecord(r)).quads.map((q) =>
        DataFactory.quad(blank(q.subject, i) as RDF.Quad_Subject, q.predicate, blank(q.object, i) as RDF.Quad_Object),
      );
      const head = quads.find((q) => q.predicate.value === 'http://purl.org/ontology/bibo/authorList')?.object;
      const second = head && quads.find((q) => q.subject.equals(head) && q.predicate.value === RDF_REST)?.object;
      return quads.filter(
        (q) => !((i === 2 || i === 7) && second && q.subject.equals(second) && q.predicate.value === RDF_FIRST),
      );
    });
    // Written as a dump would be: the work's quads, then those of its blank nodes.
    const w = serializerFor('ntriples').createWriter();
    const text = records
      .map(
        (quads) =>
          w.write(quads.filter((q) => q.subject.termType === 'NamedNode')) +
          w.write(quads.filter((q) => q.subject.termType === 'BlankNode')),
      )
      .join('');
    const expected = [];
    for (const quads of records)
      expected.push(comparable(recordKeyOf(quads[0]!.subject), await validator.validateRecord(quads)));
    expect(
      expected.filter((e) => e.results.some((r) => r.includes('Work-authorListMembers'))).map((e) => e.key),
    ).toEqual([expected[2]!.key, expected[7]!.key]);
    const outcomes = async (it: AsyncIterable<{ key: string | undefined; outcome: ValidationOutcome }>) => {
      const out = [];
      for await (const v of it) out.push(comparable(v.key, v.outcome));
      return out;
    };
    expect(await outcomes(validateNTriples([Buffer.from(text)], validator))).toEqual(expected);
    expect(
      await outcomes(
        validateStream(new Parser({ format: 'application/n-triples', blankNodePrefix: '' }).parse(text), validator),
      ),
    ).toEqual(expected);
  });
});

describe('records written with Turtle lists and brackets', () => {
  it('keeps a ( ... ) author list and [ ... ] nodes with their work, though the parser gives their triples first', async () => {
    const records = [...generateRecords(6, 11)].map((r) => mapRecord(normalizeRecord(r)).quads);
    // Each record in Turtle, its author list as ( ... ) of its persons: the list cells become blank nodes.
    const texts = records.map((quads) => {
      const work = quads[0]!.subject.value;
      const authors = quads
        .filter((q) => q.subject.value === work && q.predicate.value === 'http://schema.org/author')
        .map((q) => `<${q.object.value}>`);
      const isCell = (t: RDF.Term) => /#authors-[0-9a-f]{12}$/.test(t.value);
      const w = serializerFor('ntriples').createWriter();
      const rest = quads.filter((q) => !isCell(q.subject) && !isCell(q.object));
      return (
        w.write(rest) +
        (authors.length ? `<${work}> <http://purl.org/ontology/bibo/authorList> ( ${authors.join(' ')} ) .\n` : '')
      );
    });
    const bracket =
      '<https://doi.org/10.5555/br> a <http://schema.org/ScholarlyArticle> , <http://purl.org/ontology/bibo/AcademicArticle> ; <http://purl.org/ontology/bibo/doi> "10.5555/br" ; <http://schema.org/name> "B" ; <http://purl.org/dc/terms/title> "B" ; <http://schema.org/author> [ a <http://schema.org/Person> ; <http://schema.org/name> "Anon" ] .\n';
    const segments = [...texts, bracket];
    const quads = new Parser({ format: 'text/turtle' }).parse(segments.join(''));
    const got = [];
    for await (const v of validateStream(quads, validator)) got.push(comparable(v.key, v.outcome));
    // The truth: each record validated with all the triples of its Turtle (its blank nodes' and the shared
    // journals, publishers, persons it writes included): the parser gives each segment's triples in turn.
    const expected = [];
    let at = 0;
    for (const text of segments) {
      const own = quads.slice(at, (at += new Parser({ format: 'text/turtle' }).parse(text).length));
      const key = own.map((q) => recordKeyOf(q.subject)).find((k) => k !== undefined);
      expect(
        own.some((q) => q.subject.termType === 'BlankNode'),
        key,
      ).toBe(true);
      expected.push(comparable(key, await validator.validateRecord(own)));
    }
    expect(at).toBe(quads.length);
    expect(quads.some((q) => q.subject.termType === 'NamedNode' && recordKeyOf(q.subject) === undefined)).toBe(true);
    expect(got).toEqual(expected);
    // What split records gave: a list that does not end, members missing from it.
    expect(
      got
        .filter((g) => g.key !== '10.5555/br')
        .flatMap((g) => g.results)
        .filter((r) => /AuthorListOrder|authorListMembers|ListCell-first/.test(r)),
    ).toEqual([]);
  });
});

describe('validateNTriples', () => {
  it('gives every record the outcome validateStream gives it, in the same order', async () => {
    const quads = [
      ...fixtureQuads('broken-records.ttl'),
      ...[...generateRecords(20, 3)].flatMap((r) => mapRecord(normalizeRecord(r)).quads),
      ...fixtureQuads('full-records.ttl'),
    ];
    const text = nt(quads);
    const expected = [];
    for await (const v of validateStream(new Parser({ format: 'application/n-triples' }).parse(text), validator))
      expected.push(comparable(v.key, v.outcome));
    const got = [];
    for await (const v of validateNTriples([Buffer.from(text)], validator, { batch: 4, concurrency: 3 }))
      got.push(comparable(v.key, v.outcome));
    expect(got).toEqual(expected);
    expect(got.filter((g) => !g.conforms).length).toBe(7);
    expect(got.length).toBe(30);
  });

  it('throws a ParseError with the input line after the records before it', async () => {
    const good = nt([...generateRecords(3, 5)].flatMap((r) => mapRecord(normalizeRecord(r)).quads));
    const lines = good.split('\n').length - 1;
    const text = `${good}<https://doi.org/10.1/x> <http://schema.org/name> "unterminated .\n${good}`;
    const seen: (string | undefined)[] = [];
    let error: unknown;
    try {
      for await (const v of validateNTriples(text, validator, { source: 'dump.nt', batch: 1 })) seen.push(v.key);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toMatch(new RegExp(`^dump\\.nt:${lines + 1}: invalid N-Triples`));
    expect(seen).toHaveLength(3);
  });
});

describe('validateNTriples with a validator of your own', () => {
  it('parses the records itself when the validator has no validateTexts', async () => {
    const text = nt(fixtureQuads('broken-records.ttl'));
    const own = {
      validateRecord: (q: Iterable<RDF.Quad>) => validator.validateRecord(q),
      validateRecords: (r: readonly Iterable<RDF.Quad>[]) => validator.validateRecords(r),
    };
    const outcomes = [];
    for await (const v of validateNTriples(text, own)) outcomes.push(v.outcome.conforms);
    expect(outcomes.filter((c) => !c)).toHaveLength(7);
    expect(outcomes).toHaveLength(8);
  });
});

describe('validateNTriples on a long line', () => {
  it("stops at a line longer than maxDocumentChars with the parsers' error, after the records before it", async () => {
    const quads = [...generateRecords(3, 11)].flatMap((r) => mapRecord(normalizeRecord(r)).quads);
    const long = `<https://doi.org/10.1/big> <http://schema.org/abstract> "${'a'.repeat(3000)}" .\n`;
    const text = nt(quads) + long;
    const keys: (string | undefined)[] = [];
    const err = await (async () => {
      for await (const { key } of validateNTriples(text, validator, { source: 'big.nt', maxDocumentChars: 2000 }))
        keys.push(key);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).message).toBe(
      `big.nt:${text.split('\n').length - 1}: line ${text.split('\n').length - 1} is larger than 2000 characters, more than is read at once: not read (\`maxDocumentChars\` raises the limit)`,
    );
    expect(keys.length).toBeLessThanOrEqual(3);
  });
});
