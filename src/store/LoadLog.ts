import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { ToolkitError, hideUrlSecrets, ioError } from '../errors.js';

/** One input of a load, as the log identifies it (a changed file must not be resumed). */
export interface LoadInput {
  /** The path as given (or `-` for stdin). */
  path: string;
  /** Size in bytes, when known. */
  size?: number;
  /** Last modification time (ms since the epoch), when known. */
  mtimeMs?: number;
}

/** What identifies a load: a resume must match it exactly. */
export interface LoadIdentity {
  /** The Graph Store URL (no credentials; a key-like value of its query, `?apikey=`, is kept as `***` in the log). */
  graphStore: string;
  graph: string;
  chunkTriples: number;
  chunkFormat: string;
  inputs: readonly LoadInput[];
}

/** The load log's content (a small JSON file, rewritten atomically after each acknowledged chunk). */
export interface LoadLogState extends LoadIdentity {
  version: 1;
  /** Triples in the graph before the load (for the final count check when not replacing). */
  baseline: number;
  /** Whether the graph was cleared (`--replace`) already. */
  replaced: boolean;
  /** Chunks the store acknowledged, in order, without gaps. */
  chunksAcked: number;
  /** Triples of those chunks. */
  triplesAcked: number;
  /** Whether every chunk was acknowledged. */
  complete: boolean;
  startedAt: string;
  updatedAt: string;
}

/**
 * The load log of a resumable load: a JSON file recording the chunks the store
 * acknowledged (a contiguous prefix of the input's chunks). It is written to a
 * temporary file and renamed over the old one, so an interruption at any time
 * leaves either the old or the new state, never a torn one. It holds no
 * credentials.
 */
export class LoadLog {
  private constructor(
    readonly path: string,
    private current: LoadLogState,
  ) {}

  /** The state as last written. */
  get state(): Readonly<LoadLogState> {
    return this.current;
  }

  /** Starts a new log (replacing any old file at `path`). */
  static async create(path: string, identity: LoadIdentity, baseline: number): Promise<LoadLog> {
    const now = new Date().toISOString();
    const log = new LoadLog(path, {
      version: 1,
      ...identity,
      graphStore: hideUrlSecrets(identity.graphStore),
      inputs: identity.inputs.map((i) => ({ ...i })),
      baseline,
      replaced: false,
      chunksAcked: 0,
      triplesAcked: 0,
      complete: false,
      startedAt: now,
      updatedAt: now,
    });
    await log.save();
    return log;
  }

  /** Reads a log; `undefined` when the file does not exist. Fails with `state-mismatch` when it is not a load log. */
  static async open(path: string): Promise<LoadLog | undefined> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw ioError(err, path, 'read', 'the load log');
    }
    let state: LoadLogState;
    try {
      state = JSON.parse(text) as LoadLogState;
    } catch (err) {
      throw new ToolkitError(`${path} is not a load log (not JSON)`, 'state-mismatch', { cause: err });
    }
    if (state.version !== 1 || typeof state.chunksAcked !== 'number' || typeof state.graph !== 'string') {
      throw new ToolkitError(`${path} is not a load log of this version`, 'state-mismatch');
    }
    return new LoadLog(path, state);
  }

  /** Throws `state-mismatch` naming what differs when `identity` is not the load this log records. */
  assertSameLoad(identity: LoadIdentity): void {
    const s = this.current;
    const diffs: string[] = [];
    // The log keeps the URL with its secrets hidden: compared so.
    const graphStore = hideUrlSecrets(identity.graphStore);
    if (hideUrlSecrets(s.graphStore) !== graphStore)
      diffs.push(`endpoint ${hideUrlSecrets(s.graphStore)} vs ${graphStore}`);
    if (s.graph !== identity.graph) diffs.push(`graph <${s.graph}> vs <${identity.graph}>`);
    if (s.chunkTriples !== identity.chunkTriples)
      diffs.push(`\`chunkTriples\` ${s.chunkTriples} vs ${identity.chunkTriples}`);
    if (s.chunkFormat !== identity.chunkFormat) diffs.push(`chunk format ${s.chunkFormat} vs ${identity.chunkFormat}`);
    const a = JSON.stringify(s.inputs.map((i) => [i.path, i.size, i.mtimeMs]));
    const b = JSON.stringify(identity.inputs.map((i) => [i.path, i.size, i.mtimeMs]));
    if (a !== b) diffs.push('the input files (names, sizes or modification times) changed');
    if (diffs.length > 0) {
      throw new ToolkitError(
        `the load log ${this.path} records a different load (${diffs.join('; ')}); run without \`resume\` to start over, or remove the log`,
        'state-mismatch',
        { details: { path: this.path } },
      );
    }
  }

  /** Records that the graph was cleared. */
  async markReplaced(): Promise<void> {
    this.current = { ...this.current, replaced: true };
    await this.save();
  }

  /** Records one more acknowledged chunk of `triples` triples. */
  async ack(triples: number): Promise<void> {
    this.current = {
      ...this.current,
      chunksAcked: this.current.chunksAcked + 1,
      triplesAcked: this.current.triplesAcked + triples,
    };
    await this.save();
  }

  /** Records that every chunk was acknowledged. */
  async markComplete(): Promise<void> {
    this.current = { ...this.current, complete: true };
    await this.save();
  }

  private async save(): Promise<void> {
    this.current = { ...this.current, updatedAt: new Date().toISOString() };
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(this.current, null, 2)}\n`, 'utf8');
      await rename(tmp, this.path);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw ioError(err, this.path, 'write', 'the load log');
    }
  }
}
