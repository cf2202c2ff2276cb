/**
 * The records of a catalogue, kept as the bytes of their JSON text: only the
 * records of a page are parsed. Keys that start with `_` are catalogue-only
 * (indexed, never served).
 */
export class RecordTexts {
  /**
   * Record `id` is bytes `starts[id]` … `ends[id]` of chunk `chunkIds[id]`;
   * `hidden[id]` says where its catalogue-only keys start (see `hiddenTail`).
   */
  constructor(
    private readonly chunks: readonly Buffer[],
    private readonly chunkIds: Int32Array,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly hidden: Int32Array,
  ) {}

  /** Number of records. */
  get size(): number {
    return this.chunkIds.length;
  }

  /** The JSON text of record `id` as served (catalogue-only `_` keys removed). */
  json(id: number): string {
    const hidden = this.hidden[id]!;
    if (hidden > 0) return `${this.chunks[this.chunkIds[id]!]!.toString('utf8', this.starts[id]!, hidden)}}`;
    const text = this.rawText(id);
    if (hidden === 0) return text;
    return JSON.stringify(stripHidden(JSON.parse(text) as Record<string, unknown>));
  }

  /** Record `id` as an object, as served. */
  record(id: number): Record<string, unknown> {
    if (this.hidden[id]! > 0) return JSON.parse(this.json(id)) as Record<string, unknown>;
    const r = JSON.parse(this.rawText(id)) as Record<string, unknown>;
    return this.hidden[id] === 0 ? r : stripHidden(r);
  }

  /** The JSON text of record `id` as stored, catalogue-only keys included. */
  rawText(id: number): string {
    return this.chunks[this.chunkIds[id]!]!.toString('utf8', this.starts[id]!, this.ends[id]!);
  }

  /** Record `id` with its catalogue-only keys. */
  rawRecord(id: number): Record<string, unknown> {
    return JSON.parse(this.rawText(id)) as Record<string, unknown>;
  }
}

function stripHidden(r: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(r)) if (key.startsWith('_')) delete r[key];
  return r;
}
