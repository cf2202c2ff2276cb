import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { convertFiles } from '../../src/tasks/convertFiles.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';
import { tempDir } from '../helpers/tempDir.js';

const dir = tempDir('convert-rdf-');
const TURTLE = `@prefix schema: <http://schema.org/> .
<https://doi.org/10.1/a> a schema:ScholarlyArticle ; schema:name "A"@en , "Ä" ; schema:author _:p .
_:p schema:name "P" .
`;
const NQUADS = `<https://doi.org/10.1/a> <http://schema.org/name> "A" <https://example.org/g1> .
<https://doi.org/10.1/b> <http://schema.org/name> "B" .
`;

describe('convert speaks RDF too: an RDF document is re-serialised as it is, streaming', () => {
  it('Turtle → N-Triples, RDF/XML and JSON-LD: the same graph', async () => {
    const input = join(dir, 'in.ttl');
    writeFileSync(input, TURTLE);
    const expected = parseTurtle(TURTLE);
    for (const [ext, parse] of [
      ['nt', parseNTriples],
      ['rdf', parseRdfXml],
      ['jsonld', parseJsonLd],
    ] as const) {
      const output = join(dir, `out.${ext}`);
      const summary = await convertFiles({ inputs: [input], output });
      expect(summary).toMatchObject({ read: 0, rejected: 0, statements: 5 });
      expectIsomorphic(await parse(readFileSync(output, 'utf8')), expected, ext);
    }
  });

  it('N-Quads → JSON-LD keeps the named graphs; N-Quads → N-Triples is refused, not flattened silently', async () => {
    const input = join(dir, 'in.nq');
    writeFileSync(input, NQUADS);
    await convertFiles({ inputs: [input], output: join(dir, 'q.jsonld') });
    expectIsomorphic(await parseJsonLd(readFileSync(join(dir, 'q.jsonld'), 'utf8')), parseNQuads(NQUADS));
    await expect(convertFiles({ inputs: [input], output: join(dir, 'q.nt') })).rejects.toMatchObject({
      code: 'serialization',
    });
  });

  it("tells RDF from the service's JSON by content when the name does not say (stdin, .json); JSON-LD by its name", async () => {
    const viaStdin = await convertFiles({
      inputs: ['-'],
      stdin: Readable.from([TURTLE]),
      output: join(dir, 'stdin.nt'),
    });
    expect(viaStdin.statements).toBe(5);
    const doc = { '@context': { name: 'http://schema.org/name' }, '@id': 'https://doi.org/10.1/c', name: 'C' };
    writeFileSync(join(dir, 'doc.jsonld'), JSON.stringify(doc));
    const fromJsonLd = await convertFiles({ inputs: [join(dir, 'doc.jsonld')], output: join(dir, 'doc.nt') });
    expect(readFileSync(join(dir, 'doc.nt'), 'utf8')).toBe('<https://doi.org/10.1/c> <http://schema.org/name> "C" .\n');
    expect(fromJsonLd.read).toBe(0);
    // The same JSON named .json is the service's: a record may hold any key, @context too.
    writeFileSync(join(dir, 'doc.json'), JSON.stringify({ ...doc, doi: '10.1/c' }));
    expect(await convertFiles({ inputs: [join(dir, 'doc.json')], output: join(dir, 'doc2.nt') })).toMatchObject({
      read: 1,
      mapped: 1,
    });
    const records = join(dir, 'records.json');
    writeFileSync(records, JSON.stringify({ records: [{ doi: '10.1/d', title: 'D' }] }));
    const fromRecords = await convertFiles({ inputs: [records], output: join(dir, 'records.nt') });
    expect(fromRecords).toMatchObject({ read: 1, mapped: 1 });
  });

  it('a broken RDF document fails the run (exit 4: parse), leaving no output', async () => {
    const input = join(dir, 'bad.ttl');
    writeFileSync(input, '<https://doi.org/10.1/a> <http://schema.org/name> "unterminated .\n');
    await expect(convertFiles({ inputs: [input], output: join(dir, 'bad.nt') })).rejects.toMatchObject({
      code: 'parse',
    });
    expect(() => readFileSync(join(dir, 'bad.nt'))).toThrow();
  });
});
