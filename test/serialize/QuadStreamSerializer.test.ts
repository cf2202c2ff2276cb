import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type * as RDF from '@rdfjs/types';
import { StreamParser } from 'n3';
import { QuadStreamSerializer } from '../../src/serialize/QuadStreamSerializer.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { ALL_FORMATS, parseFormat, recordQuads, trickyQuads, writeAll } from './quads.js';
import { expectIsomorphic } from '../helpers/rdf.js';

describe('QuadStreamSerializer', () => {
  describe('import', () => {
    it('serialises a quad stream in every format', async () => {
      const quads = [...recordQuads('10.1/a'), ...trickyQuads(), ...recordQuads('10.1/b', 1)];
      for (const format of ALL_FORMATS) {
        const out = new QuadStreamSerializer(serializerFor(format), { chunkSize: 512 }).import(
          Readable.from(quads) as unknown as RDF.Stream,
        );
        expectIsomorphic(await parseFormat(format, await text(out)), quads, format);
      }
    });

    it('groups consecutive quads of one subject (Turtle writes each subject once per run)', async () => {
      const quads = recordQuads('10.1/a', 1);
      const out = await text(
        new QuadStreamSerializer(serializerFor('turtle'), { prefixes: {} }).import(
          Readable.from(quads) as unknown as RDF.Stream,
        ),
      );
      const runs = quads.filter((q, i) => i === 0 || !q.subject.equals(quads[i - 1]!.subject)).length;
      expect(out.split('\n\n').filter((b) => b.trim()).length).toBe(runs);
    });

    it('reads event-only RDF/JS streams (no async iterator), such as n3 StreamParser output', async () => {
      const source = writeAll('ntriples', [recordQuads('10.1/a')]);
      const parser = new StreamParser({ format: 'N-Triples' });
      Readable.from([source]).pipe(parser);
      const out = await text(new QuadStreamSerializer(serializerFor('jsonld')).import(parser as unknown as RDF.Stream));
      expectIsomorphic(await parseFormat('jsonld', out), recordQuads('10.1/a'));

      const emitter = new EventEmitter();
      const pending = text(
        new QuadStreamSerializer(serializerFor('ntriples')).import(emitter as unknown as RDF.Stream),
      );
      setImmediate(() => {
        for (const q of recordQuads('10.1/b', 0)) emitter.emit('data', q);
        emitter.emit('end');
      });
      expectIsomorphic(await parseFormat('ntriples', await pending), recordQuads('10.1/b', 0));
    });

    it('fails the output stream when the input fails', async () => {
      const emitter = new EventEmitter();
      const out = new QuadStreamSerializer(serializerFor('turtle')).import(emitter as unknown as RDF.Stream);
      setImmediate(() => emitter.emit('error', new Error('bad input')));
      await expect(text(out)).rejects.toThrow('bad input');
    });

    it('fails the output stream with a serialisation error', async () => {
      const quads = recordQuads('10.1/a b', 0);
      const out = new QuadStreamSerializer(serializerFor('rdfxml')).import(
        Readable.from(quads) as unknown as RDF.Stream,
      );
      await expect(text(out)).rejects.toMatchObject({ code: 'serialization' });
    });
  });
});
