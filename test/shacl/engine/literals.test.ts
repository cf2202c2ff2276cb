// sh:datatype's lexical space test: each bounded integer type refuses values out of its range (a bound of 0
// included: `"-5"^^xsd:nonNegativeInteger` used to pass, a bound of 0n read as none), as shacl-engine does.
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import { distinctRecord } from '../../../src/shacl/engine/RecordIndex.js';
import { TermInterner } from '../../../src/shacl/engine/TermInterner.js';
import { formTest } from '../../../src/shacl/engine/literals.js';
import { WholeRecordEngine } from '../../../src/shacl/shaclEngine/WholeRecordEngine.js';
import type { ValidationResult } from '../../../src/shacl/reports/ValidationResult.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const TYPES = [
  'integer',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'nonPositiveInteger',
  'negativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
];
const VALUES = ['-300', '-129', '-128', '-1', '-0', '0', '+0', '1', '127', '128', '255', '256', '300', '1.5', 'x'];

describe('formTest: bounded integer types', () => {
  it('keeps each type to its range, bounds of 0 included', () => {
    const test = (type: string, value: string) => formTest(`${XSD}${type}`)(value, '');
    expect(test('nonNegativeInteger', '-5')).toBe(false);
    expect(test('nonNegativeInteger', '-0')).toBe(true);
    expect(test('nonNegativeInteger', '0')).toBe(true);
    expect(test('nonPositiveInteger', '5')).toBe(false);
    expect(test('nonPositiveInteger', '+0')).toBe(true);
    expect(test('positiveInteger', '0')).toBe(false);
    expect(test('negativeInteger', '0')).toBe(false);
    expect(test('unsignedByte', '-1')).toBe(false);
    expect(test('unsignedByte', '255')).toBe(true);
    expect(test('unsignedByte', '256')).toBe(false);
    expect(test('byte', '-128')).toBe(true);
    expect(test('byte', '-129')).toBe(false);
    expect(test('integer', '-300')).toBe(true);
    expect(test('integer', '1.5')).toBe(false);
  });

  it('finds the values shacl-engine finds, type by type', async () => {
    const shapes = new Parser().parse(
      `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <${XSD}> .
       <urn:s> a sh:NodeShape ; sh:targetNode <urn:x> ` +
        TYPES.map((t, i) => `; sh:property [ sh:path <urn:p${i}> ; sh:datatype xsd:${t} ] `).join('') +
        '.',
    );
    const data = new Parser().parse(
      TYPES.flatMap((t, i) => VALUES.map((v) => `<urn:x> <urn:p${i}> "${v}"^^<${XSD}${t}> .`)).join('\n'),
    );
    const lines = (results: ValidationResult[]) => results.map((r) => `${r.path} ${r.value?.value}`).sort();
    const core = CoreEngine.compile(shapes);
    const interner = new TermInterner(core.interner);
    const record = distinctRecord(data, (q) => interner.quad(q));
    const ours = lines(core.validateTriples(record.triples, record.pairs));
    const theirs = lines(await WholeRecordEngine.create(shapes, undefined).validate(data));
    expect(ours).toContain('<urn:p5> -300'); // nonNegativeInteger
    expect(ours).toContain('<urn:p7> 300'); // nonPositiveInteger
    expect(ours).toEqual(theirs);
  });
});
