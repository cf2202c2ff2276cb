import type { MappedRecord } from '../mapping/mapRecord.js';
import type { Rejection } from './convertItem.js';

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
    this.read++;
    this.mapped++;
    this.triples += record.quads.length;
    this.notes += record.notes.length;
    for (const field of record.unknownFields) this.unknownFields.set(field, (this.unknownFields.get(field) ?? 0) + 1);
  }

  /** Counts a rejection. */
  addRejected(_rejection: Rejection): void {
    this.read++;
    this.rejected++;
  }

  /** One-line summary: `records read 3, mapped 2, rejected 1, statements 120, unknown fields: foo (2)`. */
  summary(): string {
    const unknown = [...this.unknownFields].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return (
      `records read ${this.read}, mapped ${this.mapped}, rejected ${this.rejected}, statements ${this.triples}` +
      (this.notes ? `, notes ${this.notes}` : '') +
      `, unknown fields: ${unknown.length ? unknown.map(([k, n]) => `${k} (${n})`).join(', ') : 'none'}`
    );
  }
}
