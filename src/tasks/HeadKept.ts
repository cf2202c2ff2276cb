/**
 * An input's chunks, read once, for a sniffer and then, from the start again, for the reader of its bytes: the head
 * the sniffer read is kept, until {@link forget} (an RDF document is parsed from the sniffer's text: a head kept
 * as the parser read on was the whole file, 1.7 GB for a 1.2 GB N-Triples file with two jobs).
 */
export class HeadKept {
  private head: Uint8Array[] | undefined = [];
  private readonly source: AsyncIterator<Uint8Array>;

  constructor(input: AsyncIterable<Uint8Array>) {
    this.source = input[Symbol.asyncIterator]();
  }

  /** The chunks, each kept as it is read (read lazily: the sniffer reads no more than it needs). */
  async *chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      this.head?.push(next.value);
      yield next.value;
    }
  }

  /** Keeps no more chunks (those kept are dropped): the input is read on through {@link chunks}. */
  forget(): void {
    this.head = undefined;
  }

  /** The chunks from the start: those read so far, then the rest. */
  async *again(): AsyncGenerator<Uint8Array> {
    const head = this.head ?? [];
    this.head = undefined;
    yield* head;
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      yield next.value;
    }
  }
}
