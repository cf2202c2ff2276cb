import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { CASE_PREFIXES } from './shapeCases.js';

const PREFIXES = Object.entries(CASE_PREFIXES)
  .map(([p, ns]) => `@prefix ${p}: <${ns}> .`)
  .join('\n');
const turtle = (text: string): RDF.Quad[] => new Parser().parse(`${PREFIXES}\n${text}`);

let validator: RecordValidator;
beforeAll(async () => {
  validator = await RecordValidator.create();
});

describe('RecordValidator.validateRecords', () => {
  it('keeps apart records where one refers to a node of another (an author described only in the other record)', async () => {
    const [a, b] = [
      turtle(`doi:ra a schema:ScholarlyArticle ; schema:name "A" ; dcterms:title "A" ; bibo:doi "10.5555/ra" ; schema:identifier "doi:10.5555/ra" .
        <https://w3id.org/scholarly-rdf/doi/10.5555/ra#author-1> a schema:Person ; schema:name "Ann Lee" .`),
      turtle(`doi:rb a schema:ScholarlyArticle ; schema:name "B" ; dcterms:title "B" ; bibo:doi "10.5555/rb" ; schema:identifier "doi:10.5555/rb" ;
        schema:author <https://w3id.org/scholarly-rdf/doi/10.5555/ra#author-1> .`),
    ];
    const classViolations = (outcome: { results: { constraintComponent: RDF.NamedNode }[] }) =>
      outcome.results.map((r) => r.constraintComponent.value);
    // Alone, B's author is no schema:Person; validated with A, B must not see A's description of it.
    expect(classViolations(await validator.validateRecord(b))).toContain(
      'http://www.w3.org/ns/shacl#ClassConstraintComponent',
    );
    const [, together] = await validator.validateRecords([a, b]);
    expect(classViolations(together!)).toContain('http://www.w3.org/ns/shacl#ClassConstraintComponent');
  });

  it('validates each distinct triple once, however often a record repeats it (a node with many triples too)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `schema:keywords "k${i}"`).join(' ; ');
    const record = turtle(
      `doi:rc a schema:ScholarlyArticle ; schema:name "C" ; dcterms:title "C", "D" ; bibo:doi "10.5555/rc" ; schema:identifier "doi:10.5555/rc" ; ${many} .`,
    );
    const once = await validator.validateRecord(record);
    expect(once.results.length).toBeGreaterThan(0);
    // Every triple twice, the second copies in reverse order (the many triples of the work past any short list).
    expect(await validator.validateRecord([...record, ...[...record].reverse()])).toEqual(once);
  });
});
