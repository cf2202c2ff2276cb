import type * as RDF from '@rdfjs/types';
import type { MappedRecord } from '../mapping/mapRecord.js';
import { DistinctSharedStatements } from '../mapping/DistinctSharedStatements.js';
import type { Rejection } from './Rejection.js';
import type { FormatName } from '../formats.js';

/** What a conversion did. */
export interface ConvertSummary {
  /** Items read (records, and parts of inputs that could not be read). */
  read: number;
  /** Records written. */
  mapped: number;
  rejected: number;
  /** Statements written (a shared node's, repeated in every record that names it, each time). */
  statements: number;
  /**
   * The distinct statements among them: what a graph loaded with the output holds (see {@link ConvertStats}).
   * Exact for records (up to a 53-bit hash's collisions: n²/2^54 among n distinct statements of shared entities);
   * for an RDF input, a statement it repeats that is not about a shared entity is counted each time.
   */
  distinctStatements: number;
  /** Notes of the mapper on written records. */
  notes: number;
  /** Fields the mapper does not know, with how many records had each. */
  unknownFields: Record<string, number>;
  /** Identities the records contradict (one ORCID iD on two names, one journal key on two names, one DOI with two contents), counted. */
  conflicts: number;
  /** The first 100 conflicts (`CONFLICT_NOTES_KEPT`), one line each naming both records (all are in the notes file). */
  conflictNotes: string[];
  format: FormatName;
  /** The output file, or null for a stream (with shards: the name they are named after, which is not written). */
  output: string | null;
  /** With shards: the manifest that lists them; else null. */
  manifestPath: string | null;
  /** The rejects file, when a record was rejected and one was asked for. */
  rejectsPath: string | null;
  /** The notes file, when a written record had notes and one was asked for. */
  notesPath: string | null;
}

/**
 * Counts of a conversion, for the summary. Distinct statements: the statements written, less the repeats
 * of statements about shared entities (a journal's, a publisher's, an ORCID person's: `isSharedTriple`,
 * which every record naming the entity writes again). A record's own statements are not repeated (one
 * record per DOI), and a statement with a blank node is a new one wherever it is. The statements about
 * shared entities are kept as 53-bit keys (`DistinctTriples`, as `load` counts them): memory grows with the
 * distinct statements about shared entities (16 to 32 bytes each), not with the records.
 */
export class ConvertStats {
  read = 0;
  mapped = 0;
  rejected = 0;
  /** Statements written (a shared node's, repeated in every record that names it, each time). */
  triples = 0;
  /** Of them, the statements about shared entities, and the distinct ones among them. */
  private readonly shared = new DistinctSharedStatements();

  /** Notes of the mapper (repairs, skipped placeholders), counted. */
  notes = 0;
  /** Unknown fields by name, with how many records had them. */
  readonly unknownFields = new Map<string, number>();

  /** `recordGraphs`: each record in a graph of its own, where its statements about shared entities are quads of their own (none repeats). */
  constructor(private readonly recordGraphs = false) {}

  /** Counts a mapped record. */
  addMapped(record: MappedRecord): void {
    this.addRecord(record.quads.length, record.notes, record.unknownFields);
    if (!this.recordGraphs) this.shared.add(record.quads);
  }

  /** Counts a written record from its outline (`ParallelRecordSink`'s: its quads stayed in a worker thread). */
  addWritten(record: {
    quadCount: number;
    sharedKeys: readonly number[];
    notes: readonly string[];
    unknownFields: readonly string[];
  }): void {
    this.addRecord(record.quadCount, record.notes, record.unknownFields);
    if (!this.recordGraphs) this.shared.addKeys(record.sharedKeys);
  }

  private addRecord(quadCount: number, notes: readonly string[], unknownFields: readonly string[]): void {
    this.read++;
    this.mapped++;
    this.triples += quadCount;
    this.notes += notes.length;
    for (const field of unknownFields) this.unknownFields.set(field, (this.unknownFields.get(field) ?? 0) + 1);
  }

  /** Counts the statements of an RDF input, written as they are (no records). */
  addStatements(quads: readonly RDF.Quad[]): void {
    this.triples += quads.length;
    if (!this.recordGraphs) this.shared.add(quads);
  }

  /** The distinct statements written so far. */
  get distinct(): number {
    return this.triples - this.shared.count + this.shared.distinct;
  }

  /** Counts a rejection. */
  addRejected(_rejection: Rejection): void {
    this.read++;
    this.rejected++;
  }

  /** The counts as plain data (the conflicts are `IdentityConflicts`'). */
  toSummary(): Pick<
    ConvertSummary,
    'read' | 'mapped' | 'rejected' | 'statements' | 'distinctStatements' | 'notes' | 'unknownFields'
  > {
    return {
      read: this.read,
      mapped: this.mapped,
      rejected: this.rejected,
      statements: this.triples,
      distinctStatements: this.distinct,
      notes: this.notes,
      unknownFields: Object.fromEntries(this.unknownFields),
    };
  }
}

/**
 * What follows a count of statements written by records, for a person: ` (98 distinct; shared entities repeat
 * per record)` when a shared entity's (a journal's, a person's) were written again by records naming it (a
 * store holds each once), else nothing. `upperBound`: the distinct count is one (`at most 98 distinct`); `format` writes the count.
 */
export function distinctNote(
  statements: number,
  distinct: number | undefined,
  upperBound = false,
  format: (count: number) => string = String,
): string {
  if (distinct === undefined || distinct >= statements) return '';
  return ` (${upperBound ? 'at most ' : ''}${format(distinct)} distinct; shared entities repeat per record)`;
}

/** One line for a person: `records read 3, mapped 2, rejected 1, statements 120 (98 distinct; shared entities repeat per record), unknown fields: foo (2)`. */
export function convertSummaryLine(
  s: Pick<
    ConvertSummary,
    'read' | 'mapped' | 'rejected' | 'statements' | 'distinctStatements' | 'notes' | 'unknownFields'
  > & {
    conflicts?: number;
  },
): string {
  const unknown = Object.entries(s.unknownFields).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    `records read ${s.read}, mapped ${s.mapped}, rejected ${s.rejected}, statements ${s.statements}${distinctNote(s.statements, s.distinctStatements)}` +
    (s.notes ? `, notes ${s.notes}` : '') +
    (s.conflicts ? `, conflicts ${s.conflicts}` : '') +
    `, unknown fields: ${unknown.length ? unknown.map(([k, n]) => `${k} (${n})`).join(', ') : 'none'}`
  );
}
