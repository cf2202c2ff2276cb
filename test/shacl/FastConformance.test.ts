import type * as RDF from '@rdfjs/types';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, Store } from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadShapes, type ShapesGraph } from '../../src/shacl/loadShapes.js';
import { prepareEngine, type PreparedEngine } from '../../src/shacl/prepareEngine.js';
import { RecordDataset } from '../../src/shacl/RecordDataset.js';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { TermInterner } from '../../src/shacl/TermInterner.js';
import { SHAPE_CASES, caseQuads, fixtureQuads, summary } from './shapeCases.js';

const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n`;

function shapesOf(turtle: string): ShapesGraph {
  return { dataset: new Store(new Parser({ format: 'text/turtle' }).parse(PREFIXES + turtle)), files: [] };
}

function quadsOf(turtle: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle' }).parse(PREFIXES + turtle);
}

/** Whether the walk answers "conforms" for some quads (all targeted shapes), and what the engine reports. */
async function both(engine: PreparedEngine, quads: RDF.Quad[]): Promise<{ fast: boolean; results: number }> {
  const interner = new TermInterner(engine.interner);
  const triples = quads.map((q) => interner.quad(q, true));
  const fast = engine.fast!.conforms(new RecordDataset(triples), engine.targeted.map((t) => t.engine!));
  const report = await engine.validator.validate({ dataset: new RecordDataset(triples) }, engine.targeted);
  return { fast, results: report.results.length };
}

describe('FastConformance (the walk of our own for conforming records)', () => {
  let shipped: PreparedEngine;

  beforeAll(async () => {
    shipped = await prepareEngine(await loadShapes());
  });

  it('answers only where the engine reports nothing, on the fixtures and every shape case of the shipped shapes', async () => {
    expect(shipped.fast).toBeDefined();
    const inputs = [fixtureQuads('full-records.ttl'), fixtureQuads('dataset-description.ttl'), fixtureQuads('broken-records.ttl'), ...SHAPE_CASES.map(caseQuads)];
    const answers = [];
    for (const quads of inputs) answers.push(await both(shipped, quads));
    expect(answers.filter((a) => a.fast && a.results > 0)).toEqual([]);
    // The conforming fixtures are answered without the engine; every case reports, so none is.
    expect(answers[0]).toEqual({ fast: true, results: 0 });
    expect(answers[1]).toEqual({ fast: true, results: 0 });
    expect(answers.slice(2).filter((a) => a.fast)).toEqual([]);
  });

  it('answers only where the engine reports nothing, on the W3C SHACL core tests and on their data less one triple', async () => {
    const suite = fileURLToPath(new URL('../spec/shacl-core/', import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const path = join(dir, f);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ttl') && !path.endsWith('manifest.ttl')) files.push(path);
      }
    };
    walk(suite);
    expect(files.length).toBeGreaterThanOrEqual(98);
    let answered = 0;
    for (const file of files) {
      // Each test's data and shapes are one file.
      const quads = new Parser({ format: 'text/turtle', baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8'));
      const engine = await prepareEngine({ dataset: new Store(quads), files: [file] });
      // (Every other triple left out, to keep the test short.)
      for (const data of [quads, ...quads.flatMap((_, i) => (i % 2 ? [] : [quads.filter((__, j) => j !== i)]))]) {
        const got = await both(engine, data);
        if (!got.fast) continue;
        answered++;
        expect(got.results, file).toBe(0);
      }
    }
    expect(answered).toBeGreaterThan(100);
  });

  it('leaves RecordValidator\'s outcomes as they were, record by record', async () => {
    const withWalk = await RecordValidator.create();
    const without = await RecordValidator.create({ fast: false });
    const records = [fixtureQuads('full-records.ttl'), fixtureQuads('broken-records.ttl'), ...SHAPE_CASES.slice(0, 60).map(caseQuads)];
    const a = await withWalk.validateRecords(records);
    const b = await without.validateRecords(records);
    expect(a.map((o) => o.results.map(summary))).toEqual(b.map((o) => o.results.map(summary)));
    expect(a).toEqual(b);
  });

  it('does not answer for a shape met again on a focus node after it failed (the engine repeats only part of its results)', async () => {
    // ex:Inner fails on ex:x through its property shape; the engine's second sh:not repeats Inner's own results
    // (none: they were filed under the property shape), so it finds Inner conforming and reports.
    const engine = await prepareEngine(
      shapesOf(`ex:S1 a sh:NodeShape ; sh:targetNode ex:x ; sh:not ex:Inner .
        ex:S2 a sh:NodeShape ; sh:targetNode ex:x ; sh:not ex:Inner .
        ex:Inner a sh:NodeShape ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`),
    );
    const got = await both(engine, quadsOf('ex:x ex:q 1 .'));
    expect(got.results).toBeGreaterThan(0);
    expect(got.fast).toBe(false);
    // Met once, the same sh:not is answered.
    const once = await prepareEngine(shapesOf(`ex:S1 a sh:NodeShape ; sh:targetNode ex:x ; sh:not ex:Inner .
        ex:Inner a sh:NodeShape ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`));
    expect(await both(once, quadsOf('ex:x ex:q 1 .'))).toEqual({ fast: true, results: 0 });
  });

  it('does not answer for a shape met again on other value paths when a constraint failed below it (the engine validates it again, repeating part of the results below)', async () => {
    // ex:X conforms on ex:f (ex:S3 fails on ex:v, so its sh:not passes); met again from ex:x, the engine validates
    // ex:X anew but repeats ex:S3's own results on ex:v (none: they were filed under its property shape), so the
    // sh:not fails and reports.
    const shapes = `ex:X a sh:NodeShape ; sh:targetNode ex:f ; sh:property [ sh:path ex:p ; sh:not ex:S3 ] .
      ex:S3 a sh:NodeShape ; sh:property [ sh:path ex:r ; sh:minCount 1 ] .`;
    const engine = await prepareEngine(shapesOf(`${shapes} ex:T2 a sh:NodeShape ; sh:targetNode ex:x ; sh:property [ sh:path ex:q ; sh:node ex:X ] .`));
    const got = await both(engine, quadsOf('ex:x ex:q ex:f . ex:f ex:p ex:v .'));
    expect(got.results).toBeGreaterThan(0);
    expect(got.fast).toBe(false);
    // Met once: answered.
    expect(await both(await prepareEngine(shapesOf(shapes)), quadsOf('ex:x ex:q ex:f . ex:f ex:p ex:v .'))).toEqual({ fast: true, results: 0 });
  });

  it('answers the logical constraints, paths and counts as the engine does', async () => {
    const engine = await prepareEngine(
      shapesOf(`ex:S a sh:NodeShape ; sh:targetClass ex:C ;
        sh:or ( [ sh:datatype xsd:integer ] [ sh:nodeKind sh:IRI ] ) ;
        sh:xone ( [ sh:class ex:C ] [ sh:class ex:D ] ) ;
        sh:property [ sh:path ( ex:list [ sh:zeroOrMorePath ex:rest ] ex:first ) ; sh:minCount 2 ; sh:maxCount 2 ] ;
        sh:property [ sh:path [ sh:inversePath ex:knows ] ; sh:maxCount 1 ; sh:node ex:Named ] ;
        sh:property [ sh:path ex:type ; sh:qualifiedValueShape [ sh:in ( ex:a ex:b ) ] ; sh:qualifiedMaxCount 1 ; sh:qualifiedMinCount 1 ] ;
        sh:property [ sh:path ex:name ; sh:equals ex:label ; sh:minLength 2 ; sh:pattern "^[A-Z]" ] .
        ex:Named a sh:NodeShape ; sh:closed true ; sh:property [ sh:path ex:knows ] ; sh:property [ sh:path ex:name ] .`),
    );
    const good = `ex:x a ex:C ; ex:list ex:l1 ; ex:type ex:a , ex:z ; ex:name "Xy" ; ex:label "Xy" .
      ex:l1 ex:first ex:m1 ; ex:rest ex:l2 . ex:l2 ex:first ex:m2 ; ex:rest ex:nil .
      ex:k ex:knows ex:x ; ex:name "K" .`;
    expect(await both(engine, quadsOf(good))).toEqual({ fast: true, results: 0 });
    const broken = [
      good.replace('ex:type ex:a ,', 'ex:type ex:a , ex:b ,'),
      good.replace('ex:label "Xy"', 'ex:label "Xz"'),
      good.replace('ex:name "Xy"', 'ex:name "x"'),
      good.replace('ex:rest ex:l2 .', 'ex:rest ex:nil .'),
      `${good} ex:k ex:extra 1 .`,
      `${good} ex:j ex:knows ex:x .`,
      `${good} ex:x a ex:D .`,
    ];
    for (const text of broken) {
      const got = await both(engine, quadsOf(text));
      expect({ text, ...got }).toEqual({ text, fast: false, results: got.results });
      expect(got.results).toBeGreaterThan(0);
    }
  });

  it('does not answer shapes whose results would not fail a report, nor constraints it does not know, nor endless recursion', async () => {
    const cases = [
      // A severity of the shape's own: its results do not make a nested report fail.
      `ex:S a sh:NodeShape ; sh:targetNode ex:x ; sh:severity ex:Minor ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`,
      `ex:S a sh:NodeShape ; sh:targetNode ex:x ; sh:property [ sh:path ex:p ; sh:lessThan ex:q ] .`,
      `ex:S a sh:NodeShape ; sh:targetNode ex:x ; sh:property [ sh:path ex:p ; sh:node ex:S ] .`,
    ];
    const data = quadsOf('ex:x ex:p ex:x ; ex:q 1 .');
    for (const text of cases) {
      const engine = await prepareEngine(shapesOf(text));
      expect((await both(engine, data)).fast).toBe(false);
    }
    // A deactivated shape reports nothing: answered.
    const deactivated = await prepareEngine(shapesOf(`ex:S a sh:NodeShape ; sh:targetNode ex:x ; sh:deactivated true ; sh:property [ sh:path ex:z ; sh:minCount 1 ] .`));
    expect(await both(deactivated, data)).toEqual({ fast: true, results: 0 });
  });

  it('does not answer sh:qualifiedValueShape in a shape validated on a value (the engine validates it with that value)', async () => {
    // ex:QS conforms on ex:a for ex:S1; for ex:S2, reached from the value ex:y, the engine validates it on ex:a
    // with the value ex:y (not in the list), finds no value of the shape and reports the minimum.
    const engine = await prepareEngine(
      shapesOf(`ex:S1 a sh:NodeShape ; sh:targetNode ex:x ; sh:property [ sh:path ex:t ; sh:qualifiedValueShape ex:QS ; sh:qualifiedMinCount 1 ] .
        ex:S2 a sh:NodeShape ; sh:targetNode ex:x ; sh:property [ sh:path ex:p ; sh:node ex:Q ] .
        ex:Q a sh:NodeShape ; sh:property [ sh:path ex:t ; sh:qualifiedValueShape ex:QS ; sh:qualifiedMinCount 1 ] .
        ex:QS a sh:NodeShape ; sh:in ( ex:a ) .`),
    );
    const got = await both(engine, quadsOf('ex:x ex:t ex:a ; ex:p ex:y . ex:y ex:t ex:a .'));
    expect(got.results).toBeGreaterThan(0);
    expect(got.fast).toBe(false);
  });

  it('is not made when the engine runs SPARQL constraints asynchronously, nor when asked not to', async () => {
    expect((await prepareEngine(await loadShapes(), { fast: false })).fast).toBeUndefined();
    expect((await prepareEngine(await loadShapes(), { tune: false })).fast).toBeUndefined();
  });
});
