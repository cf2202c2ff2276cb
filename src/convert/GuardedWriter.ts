import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';

/**
 * Wraps a record writer so that a record the format cannot carry (a
 * `serialization` error) is skipped instead of failing the whole run: its
 * text is left out, and the error is kept in {@link failure} for the caller
 * to turn into a rejection. Any other error is thrown as it is.
 *
 * The mapper only produces values every format can carry (the fuzz suite
 * checks that); this is the safety net that keeps one bad record from
 * costing the rest of a dump.
 */
export class GuardedWriter implements RecordWriter {
  /** The serialisation error of the last {@link write}, if it failed. */
  failure: ToolkitError | undefined;

  constructor(private readonly inner: RecordWriter) {}

  start(): string {
    return this.inner.start();
  }

  continueAfter(records: number): void {
    this.inner.continueAfter(records);
  }

  write(quads: readonly RDF.Quad[]): string {
    this.failure = undefined;
    try {
      return this.inner.write(quads);
    } catch (err) {
      if (err instanceof ToolkitError && err.code === 'serialization') {
        this.failure = err;
        return '';
      }
      throw err;
    }
  }

  /** Takes the failure of the last write (and clears it). */
  takeFailure(): ToolkitError | undefined {
    const f = this.failure;
    this.failure = undefined;
    return f;
  }

  end(): string {
    return this.inner.end();
  }
}
