/**
 * Keeps what is needed to turn a character offset of the text fed so far into
 * a line and column: the number of lines before the current chunk and the
 * current chunk only (memory does not grow with the input).
 */
export class PositionTracker {
  private linesBefore = 0;
  private lastLineStart = 0;
  private chunkStart = 0;
  private chunk = '';

  async *track(chunks: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const chunk of chunks) {
      this.advance();
      this.chunk = chunk;
      yield chunk;
    }
  }

  private advance(): void {
    let i = this.chunk.indexOf('\n');
    while (i >= 0) {
      this.linesBefore++;
      this.lastLineStart = this.chunkStart + i + 1;
      i = this.chunk.indexOf('\n', i + 1);
    }
    this.chunkStart += this.chunk.length;
  }

  /** 1-based line and column of an offset in the current chunk (or before it, line only approximate). */
  locate(offset: number): { line: number; column: number } {
    let line = this.linesBefore + 1;
    let lineStart = this.lastLineStart;
    const end = Math.min(offset - this.chunkStart, this.chunk.length);
    for (let i = 0; i < end; i++) {
      if (this.chunk.charCodeAt(i) === 10) {
        line++;
        lineStart = this.chunkStart + i + 1;
      }
    }
    return { line, column: Math.max(1, offset - lineStart + 1) };
  }
}
