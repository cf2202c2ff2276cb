import type { RecordWriter } from '../serialize/QuadSerializer.js';
import type * as RDF from '@rdfjs/types';
import { Utf8Builder } from '../pipeline/Utf8Builder.js';
import type { ConvertTarget } from './ConvertTarget.js';
import type { Output } from './openOutput.js';
import { writeText } from './writeText.js';

/** Output is gathered into writes of about this many bytes. */
const CHUNK = 1 << 20;

/** One output: texts encoded as they come into buffers of about {@link CHUNK} bytes, written with the bytes of worker threads in their order. */
export class FileTarget implements ConvertTarget {
  /** Bytes to write before the text in `pending`. */
  private bytes: Uint8Array[] = [];
  private byteCount = 0;
  private pending = new Utf8Builder(CHUNK + (CHUNK >> 2));
  /** Called with bytes added once the output took them (they may be reused). Defaults to none. */
  onWritten: ((bytes: Uint8Array) => void) | undefined;

  constructor(
    private readonly output: Output,
    readonly writer: RecordWriter,
    private readonly signal: AbortSignal | undefined,
  ) {}

  written(): void {}

  async add(text: string | Uint8Array): Promise<void> {
    this.gather(text);
    if (this.byteCount + this.pending.length >= CHUNK) await this.flush();
  }

  async addBinary(text: string): Promise<void> {
    this.pending.addBinary(text);
    if (this.byteCount + this.pending.length >= CHUNK) await this.flush();
  }

  async statements(quads: RDF.Quad[]): Promise<void> {
    await this.add(this.writer.write(quads));
  }

  async finish(end: string | Uint8Array): Promise<null> {
    this.gather(end);
    await this.flush();
    await this.output.close();
    return null;
  }

  discard(): Promise<void> {
    return this.output.discard();
  }

  /**
   * Text is encoded at once, a record's worth at a time (encoding the long text
   * of many records joined costs V8 more: it first flattens the joined string);
   * bytes are kept as they came (slices of the workers' buffers: no copy).
   */
  private gather(text: string | Uint8Array): void {
    if (typeof text === 'string') {
      this.pending.add(text);
      return;
    }
    this.takePending();
    this.bytes.push(text);
    this.byteCount += text.length;
  }

  private takePending(): void {
    if (this.pending.length === 0) return;
    const bytes = this.pending.bytes();
    this.bytes.push(bytes);
    this.byteCount += bytes.length;
    this.pending = new Utf8Builder(CHUNK + (CHUNK >> 2));
  }

  private async flush(): Promise<void> {
    this.takePending();
    const chunks = this.bytes;
    this.bytes = [];
    this.byteCount = 0;
    const done = this.onWritten;
    for (const chunk of chunks) await writeText(this.output.stream, chunk, this.signal, done && (() => done(chunk)));
  }
}
