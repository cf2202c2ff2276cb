import type { MappedRecord } from '../mapping/mapRecord.js';
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

/** Counts of a conversion, for the summary. */
export class ConvertStats {
  read = 0;
  mapped = 0;
  rejected = 0;
  /** Statements written (a shared node's, repeated in every record that names it, each time). */
  triples = 0;
  /** Notes of the mapper (repairs, skipped placeholders), counted. */
  notes = 0;
  /** Unknown fields by name, with how many records had them. */
  readonly unknownFields = new Map<string, number>();
  /** Counts a mapped record. */
  addMapped(record: MappedRecord): void {
    this.addWritten({ quadCount: record.quads.length, notes: record.notes, unknownFields: record.unknownFields });
  }

  /** Counts a written record from its outline (`ParallelRecordSink`'s: its quads stayed in a worker thread). */
  addWritten(record: { quadCount: number; notes: readonly string[]; unknownFields: readonly string[] }): void {
    this.read++;
    this.mapped++;
    this.triples += record.quadCount;
    this.notes += record.notes.length;
    for (const field of record.unknownFields) this.unknownFields.set(field, (this.unknownFields.get(field) ?? 0) + 1);
  }

  /** Counts the statements of an RDF input, written as they are (no records). */
  addStatements(count: number): void {
    this.triples += count;
  }

  /** Counts a rejection. */
  addRejected(_rejection: Rejection): void {
    this.read++;
    this.rejected++;
  }

  /** The counts as plain data (the conflicts are `IdentityConflicts`'). */
  toSummary(): Pick<ConvertSummary, 'read' | 'mapped' | 'rejected' | 'statements' | 'notes' | 'unknownFields'> {
    return {
      read: this.read,
      mapped: this.mapped,
      rejected: this.rejected,
      statements: this.triples,
      notes: this.notes,
      unknownFields: Object.fromEntries(this.unknownFields),
    };
  }
}

/**
 * Said after a count of statements written by several records: a shared entity's (a journal's, a person's) are
 * written again by every record that names it, so a store holds fewer distinct triples.
 */
export const SHARED_REPEAT = '(shared entities repeat per record: a store holds fewer distinct triples)';

/** One line for a person: `records read 3, mapped 2, rejected 1, statements 120, unknown fields: foo (2)`. */
export function convertSummaryLine(
  s: Pick<ConvertSummary, 'read' | 'mapped' | 'rejected' | 'statements' | 'notes' | 'unknownFields'> & {
    conflicts?: number;
  },
): string {
  const unknown = Object.entries(s.unknownFields).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    `records read ${s.read}, mapped ${s.mapped}, rejected ${s.rejected}, statements ${s.statements}${s.mapped > 1 ? ` ${SHARED_REPEAT}` : ''}` +
    (s.notes ? `, notes ${s.notes}` : '') +
    (s.conflicts ? `, conflicts ${s.conflicts}` : '') +
    `, unknown fields: ${unknown.length ? unknown.map(([k, n]) => `${k} (${n})`).join(', ') : 'none'}`
  );
}
