import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadShapes, parseShapesText } from '../../src/shacl/loadShapes.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import type { ValidationOutcome } from '../../src/shacl/RecordValidator.js';
import { groupRecords } from '../../src/shacl/groupRecords.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { CASE_PREFIXES, SHAPE_CASES, caseQuads, fixtureQuads, summary } from './shapeCases.js';

const PREFIXES = Object.entries(CASE_PREFIXES).map(([p, ns]) => `@prefix ${p}: <${ns}> .`).join('\n');
const turtle = (text: string): RDF.Quad[] => new Parser().parse(`${PREFIXES}\n${text}`);

async function groups(quads: RDF.Quad[]): Promise<RDF.Quad[][]> {
  const out: RDF.Quad[][] = [];
  for await (const g of groupRecords(quads)) if (g.key !== undefined) out.push(g.quads);
  return out;
}

/** Outcomes as comparable text: conformance and the results of each record. */
const text = (outcomes: ValidationOutcome[]) =>
  outcomes.map((o) => ({ conforms: o.conforms, violations: o.violations, warnings: o.warnings, results: o.results.map((r) => `${r.focusNode.value} ${summary(r)} ${r.message}`) }));

async function oneByOne(validator: RecordValidator, records: RDF.Quad[][]): Promise<ValidationOutcome[]> {
  const outcomes: ValidationOutcome[] = [];
  for (const r of records) outcomes.push(await validator.validateRecord(r));
  return outcomes;
}

let validator: RecordValidator;
beforeAll(async () => {
  validator = await RecordValidator.create();
});

describe('RecordValidator.validateRecords', () => {
  it('gives each record of a batch the outcome it has alone: broken, full and generated records mixed', async () => {
    const records = [
      ...(await groups(fixtureQuads('broken-records.ttl'))),
      ...(await groups(fixtureQuads('full-records.ttl'))),
      ...[...generateRecords(40, 7)].map((raw) => mapRecord(normalizeRecord(raw)).quads),
    ];
    const alone = await oneByOne(validator, records);
    expect(alone.some((o) => !o.conforms)).toBe(true);
    expect(text(await validator.validateRecords(records))).toEqual(text(alone));
  });

  it('gives the violating case of every shape the outcome it has alone, in one batch', async () => {
    const records: RDF.Quad[][] = [];
    for (const c of SHAPE_CASES.filter((c) => (c.base ?? 'records') === 'records')) records.push(...(await groups(caseQuads(c))));
    expect(text(await validator.validateRecords(records))).toEqual(text(await oneByOne(validator, records)));
  });

  it('keeps apart records where one refers to a node of another (an author described only in the other record)', async () => {
    const [a, b] = [
      turtle(`doi:ra a schema:ScholarlyArticle ; schema:name "A" ; dcterms:title "A" ; bibo:doi "10.5555/ra" ; schema:identifier "doi:10.5555/ra" .
        <https://w3id.org/scholarly-rdf/doi/10.5555/ra#author-1> a schema:Person ; schema:name "Ann Lee" .`),
      turtle(`doi:rb a schema:ScholarlyArticle ; schema:name "B" ; dcterms:title "B" ; bibo:doi "10.5555/rb" ; schema:identifier "doi:10.5555/rb" ;
        schema:author <https://w3id.org/scholarly-rdf/doi/10.5555/ra#author-1> .`),
    ];
    const alone = await oneByOne(validator, [a, b]);
    // Alone, B's author is no schema:Person: the batch must not see A's description of it.
    expect(alone[1]!.results.map((r) => r.constraintComponent.value)).toContain('http://www.w3.org/ns/shacl#ClassConstraintComponent');
    expect(text(await validator.validateRecords([a, b]))).toEqual(text(alone));
  });

  it('validates one by one with shapes that look back along inverse paths', async () => {
    const shapes = await loadShapes();
    const extra = parseShapesText(`${PREFIXES}
      @prefix sh: <http://www.w3.org/ns/shacl#> .
      <urn:x:OneLicensee> a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ;
        sh:property [ sh:path ( schema:license [ sh:inversePath schema:license ] ) ; sh:maxCount 1 ] .`);
    for (const q of extra) shapes.dataset.addQuad(q);
    const looking = await RecordValidator.create({ shapes });
    const license = (doi: string) =>
      turtle(`doi:${doi} a schema:ScholarlyArticle ; schema:name "x" ; dcterms:title "x" ; bibo:doi "10.5555/${doi}" ; schema:identifier "doi:10.5555/${doi}" ;
        schema:license <https://creativecommons.org/licenses/by/4.0/> .`);
    const records = [license('la'), license('lb')];
    const alone = await oneByOne(looking, records);
    expect(alone.every((o) => !o.results.some((r) => r.shape.termType === 'BlankNode'))).toBe(true);
    expect(text(await looking.validateRecords(records))).toEqual(text(alone));
  });
});
