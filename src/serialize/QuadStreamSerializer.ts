import type * as RDF from '@rdfjs/types';
import { Readable } from 'node:stream';
import type { QuadSerializer, SerializerOptions } from './QuadSerializer.js';

/** Options of {@link QuadStreamSerializer}. */
export interface QuadStreamSerializerOptions extends SerializerOptions {
  /** Output is gathered into chunks of about this many characters. Defaults to 65536. */
  chunkSize?: number;
}

/** Iterates an RDF/JS stream: its async iterator when it has one, else its `data`/`end`/`error` events (paused while the consumer is busy). */
export async function* iterateQuads(stream: RDF.Stream): AsyncGenerator<RDF.Quad> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as unknown as AsyncIterable<RDF.Quad>;
    return;
  }
  const source = stream as RDF.Stream & { pause?: () => void; resume?: () => void };
  const queue: RDF.Quad[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onData = (q: RDF.Quad): void => {
    queue.push(q);
    if (queue.length >= 1024) source.pause?.();
    notify();
  };
  const onEnd = (): void => {
    ended = true;
    notify();
  };
  const onError = (e: unknown): void => {
    failure = e ?? new Error('quad stream failed');
    notify();
  };
  source.on('data', onData);
  source.on('end', onEnd);
  source.on('error', onError);
  try {
    for (;;) {
      if (failure) throw failure;
      if (queue.length > 0) {
        const batch = queue.splice(0, queue.length);
        source.resume?.();
        yield* batch;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    source.removeListener('data', onData);
    source.removeListener('end', onEnd);
    source.removeListener('error', onError);
  }
}

/**
 * An RDF/JS Sink for generic quad streams: consecutive quads with the same
 * subject and graph form a group, which the format's record writer writes.
 * Holds one such group and one output chunk in memory.
 */
export class QuadStreamSerializer implements RDF.Sink<RDF.Stream, Readable> {
  constructor(
    readonly serializer: QuadSerializer,
    readonly options: QuadStreamSerializerOptions = {},
  ) {}

  /**
   * Returns the serialised text as a byte stream right away; a failure of the
   * input or of the writer destroys the returned stream with that error.
   */
  import(stream: RDF.Stream): Readable {
    const writer = this.serializer.createWriter(this.options);
    const chunkSize = this.options.chunkSize ?? 65536;
    async function* text(): AsyncGenerator<string> {
      let buffer = writer.start();
      let group: RDF.Quad[] = [];
      for await (const q of iterateQuads(stream)) {
        const head = group[0];
        if (head && !(q.subject.equals(head.subject) && q.graph.equals(head.graph))) {
          buffer += writer.write(group);
          group = [];
          if (buffer.length >= chunkSize) {
            yield buffer;
            buffer = '';
          }
        }
        group.push(q);
      }
      if (group.length > 0) buffer += writer.write(group);
      buffer += writer.end();
      yield buffer;
    }
    return Readable.from(text(), { objectMode: false });
  }
}
