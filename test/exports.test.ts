import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

// Pins the public surface: a pipeline that imports these names must keep working.
describe('scholarly-rdf exports', () => {
  it.each([
    'readRecords', 'normalizeRecord', 'mapRecord', 'classifyPages', 'convertItem',
    'serializerFor', 'writeRecords', 'QuadStreamSerializer', 'parseRdf', 'openRdfFile',
    'negotiate', 'fetchTerm', 'loadShippedTerm',
    'ApiClient', 'searchPages', 'harvest', 'exportRdf', 'recordGraphIri', 'inRecordGraph', 'provenanceQuads',
    'GraphStoreLoader', 'createRecordValidator', 'validateStream',
    'createServer', 'startServer', 'generateRecords',
    'ToolkitError', 'MappingError', 'ParseError', 'HttpError', 'run',
  ])('exports %s', (name) => {
    expect(typeof (api as Record<string, unknown>)[name]).toBe('function');
  });

  it('maps a record to quads through the public surface alone', () => {
    const { quads, subject } = api.mapRecord(api.normalizeRecord({ doi: '10.1007/s11306-017-1242-7', title: 'T' }));
    expect(subject.value).toBe('https://doi.org/10.1007/s11306-017-1242-7');
    const writer = api.serializerFor('ntriples').createWriter();
    expect(writer.write(quads)).toContain('<https://doi.org/10.1007/s11306-017-1242-7> <http://schema.org/name> "T" .');
  });
});
