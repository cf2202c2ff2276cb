import { describe, expect, it } from 'vitest';
import {
  FORMATS,
  FORMAT_NAMES,
  extensionList,
  extensionOf,
  formatFromMediaType,
  formatFromPath,
  formatInfo,
  formatsWith,
  isLineFormat,
  labelList,
  parseFormatName,
  withoutFormatExtension,
} from '../src/formats.js';

describe('the table of formats', () => {
  it('gives each format one media type, extensions and names no other format has', () => {
    const mediaTypes = FORMATS.flatMap((f) => [f.mediaType, ...f.aliases]);
    const extensions = FORMATS.flatMap((f) => f.extensions);
    expect(new Set(mediaTypes).size).toBe(mediaTypes.length);
    expect(new Set(extensions).size).toBe(extensions.length);
    expect(new Set(FORMAT_NAMES).size).toBe(FORMAT_NAMES.length);
  });

  it('reads every name, media type (with parameters) and extension of every format back to it', () => {
    for (const f of FORMATS) {
      for (const name of [f.format, ...f.names]) expect(parseFormatName(` ${name.toUpperCase()} `)).toBe(f.format);
      for (const type of [f.mediaType, ...f.aliases])
        expect(formatFromMediaType(`${type}; charset=utf-8`)).toBe(f.format);
      for (const ext of f.extensions) {
        expect(formatFromPath(`dir.v2/dump.${ext}`)).toBe(f.format);
        expect(formatFromPath(`dump.${ext.toUpperCase()}.gz`)).toBe(f.format);
        expect(withoutFormatExtension(`dir/Dump 1.${ext}.gz`)).toBe('dir/Dump 1');
      }
    }
  });

  it('knows TriG: read and written, named graphs, its media type and extension', () => {
    expect(formatInfo('trig')).toMatchObject({
      mediaType: 'application/trig',
      extensions: ['trig'],
      label: 'TriG',
      namedGraphs: true,
      anyGraph: true,
      lines: false,
      parser: 'n3',
    });
    expect(formatFromPath('dump.trig.gz')).toBe('trig');
    expect(formatFromMediaType('application/x-trig')).toBe('trig');
  });

  it('says which formats carry named graphs, take any graph and are read by lines', () => {
    expect(formatsWith('namedGraphs').map((f) => f.format)).toEqual(['nquads', 'jsonld', 'trig']);
    expect(formatsWith('anyGraph').map((f) => f.format)).toEqual(['nquads', 'trig']);
    expect(formatsWith('lines').map((f) => f.format)).toEqual(['ntriples', 'nquads']);
    expect(FORMATS.filter((f) => isLineFormat(f.format)).map((f) => f.format)).toEqual(['ntriples', 'nquads']);
    expect(isLineFormat(undefined)).toBe(false);
    // A format that takes any graph carries named graphs.
    for (const f of formatsWith('anyGraph')) expect(f.namedGraphs).toBe(true);
  });

  it('words lists for messages and help texts', () => {
    expect(labelList(formatsWith('anyGraph'))).toBe('N-Quads or TriG');
    expect(labelList(formatsWith('namedGraphs'))).toBe('N-Quads, JSON-LD or TriG');
    expect(labelList([formatInfo('turtle')])).toBe('Turtle');
    expect(extensionList()).toBe('.ttl .nt .nq .jsonld .rdf .trig');
    expect(extensionList(['jsonld', 'rdfxml'], '/')).toBe('.jsonld/.rdf');
  });

  it('leaves paths without an RDF extension alone, and refuses unknown names naming the choices', () => {
    expect(formatFromPath('records.jsonl')).toBeUndefined();
    expect(formatFromPath('README')).toBeUndefined();
    expect(extensionOf('a/b')).toBe('');
    expect(withoutFormatExtension('records.jsonl.gz')).toBe('records.jsonl');
    expect(withoutFormatExtension('dump')).toBe('dump');
    expect(() => parseFormatName('n3')).toThrow(
      /unknown format "n3": choose one of turtle, ntriples, nquads, jsonld, rdfxml, trig/,
    );
  });
});
