import type { Readable } from 'node:stream';
import type { ReadLimits } from '../parse/limits.js';
import type { Severity } from '../shacl/reports/ValidationResult.js';
import type { ValidationSummary } from '../shacl/reports/ValidationSummary.js';
import type { FailOn, ValidationMode } from '../shacl/scope/validationMode.js';

/** Options of `validateDump`. */
export interface ValidateDumpOptions extends ReadLimits {
  /** RDF files (any of the five formats, `.gz` too); `-` reads `stdin`. */
  files: readonly string[];
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** The folder relative names are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** A directory (or file) of SHACL shapes in Turtle. Defaults to the shipped shapes. */
  shapesDir?: string;
  /** Write the full SHACL validation report (Turtle) here; never one of the inputs. Defaults to none. */
  reportPath?: string;
  /** The inputs' format (a name or an alias: `ttl`, `nt`, ...). Defaults to each file's extension, else sniffed. */
  format?: string;
  /** Example violations the summary keeps. Defaults to 5. */
  maxExamples?: number;
  /** Records that may be open at once (a record is complete when this many newer ones started). Defaults to 4. */
  window?: number;
  /** Validate an input although an export is still writing it (its lock is there): what is read is then only part of it. Defaults to false (refused, code `usage`). */
  ignoreExportLock?: boolean;
  /** Read the dump of an export that has not finished (its state says so, or a `.partial` file) as it is. Defaults to false (refused, code `usage`). */
  allowPartial?: boolean;
  /** Worker threads, at most one per core (more are cut to that); `auto`: one per core, at most 8. Defaults to `auto` for inputs of 16 MiB of text or more (a `.gz` file's estimated), else 1. */
  jobs?: number | 'auto';
  /** Bytes of the parts of a plain N-Triples or N-Quads file that each worker reads itself (`jobs` > 1), about: cut where the next record starts. Defaults to 1 MiB (less near the end of the file). */
  partBytes?: number;
  /** Bring each record's quads together first (dumps sorted by subject), through temporary files. Defaults to false. */
  regroup?: boolean;
  /**
   * `record`: each record alone, in flat memory; `graph`: all the inputs as one graph in memory (at most
   * `maxGraphTriples`), as SHACL defines validation; `auto`: record by record when the shapes read nothing beyond a
   * record and each record holds what they read (checked as it goes; when not, the inputs are read again as one
   * graph, or, from stdin, the run fails), else the whole graph. Defaults to `auto`.
   */
  mode?: 'auto' | 'record' | 'graph';
  /** The results that fail the run (`failed`): of this severity or worse (a severity of the shapes' own always does). Defaults to `violation`. */
  failOn?: FailOn;
  /** The most triples the whole graph may hold (`mode` graph); a larger input fails with `usage` (or, in `auto` mode, leaves the record by record results, failing). Defaults to 500,000 (about 1.2 GB). */
  maxGraphTriples?: number;
  /** Stops the run (code `aborted`); no partial report is left. Defaults to none. */
  signal?: AbortSignal;
  /** Told the number of worker threads once they run (more than 1). Defaults to none. */
  onWorkers?: (jobs: number) => void;
  /** Told how far the validation is, as the inputs are read (at most every 200 ms, and at the end of each input). Defaults to none. */
  onProgress?: (progress: ValidateProgress) => void;
}

/** How far a validation is: {@link ValidateDumpOptions.onProgress}. */
export interface ValidateProgress {
  /** Bytes of the inputs read so far, as stored (a `.gz` file's compressed bytes, as read from disk). */
  bytesRead: number;
  /** Bytes of all the inputs as stored; `null` when one of them is stdin (its size is not known). */
  totalBytes: number | null;
  /** Records validated so far. */
  records: number;
  /** Records among them that do not conform. */
  notConforming: number;
  /** The input being read, as given (`-`: stdin). */
  file: string;
  /** Time since the inputs began to be read, ms. */
  elapsedMs: number;
}

/** What `validateDump` found. */
export interface ValidateDumpSummary {
  /**
   * Whether the input conforms, as SHACL's `sh:conforms` says: no result of any severity (an empty input does;
   * records split beyond `window` and results that may differ from the whole graph's do not).
   */
  conforms: boolean;
  /** Whether the run fails (what `validate`'s exit status says): results of `failOn`'s severity or worse, or whatever makes `conforms` false but results. */
  failed: boolean;
  /** The severities of the results, most severe first (`Violation`, the shapes' own as `<iri>`, `Warning`, `Info`). */
  severities: Severity[];
  /** How the input was validated (record by record, or as one graph), and why. */
  mode: ValidationMode;
  /** Counts per shape, examples and the lines to print (`toLines()`). */
  summary: ValidationSummary;
  /** Results written to the report, when one was asked for. */
  reportResults: number;
  /** Worker threads used (1: the calling thread). */
  jobs: number;
  /** Time the validation took (shapes and workers started, every input read), ms. */
  elapsedMs: number;
}
