import type * as RDF from '@rdfjs/types';
import { DistinctSharedStatements } from '../mapping/DistinctSharedStatements.js';
import type { ExportCounts } from './ExportState.js';

/**
 * The distinct statements of an export run ({@link ExportCounts.distinctTriples}): the statements about
 * shared entities are kept as keys; a run that continues a state adds to the count it saved, exactly while
 * no statement about a shared entity comes after the resume (the keys of those before it are not kept).
 */
export class ExportDistinct {
  private readonly shared = new DistinctSharedStatements();
  private readonly triplesBefore: number;
  private readonly distinctBefore: number;
  private readonly exactBefore: boolean;
  private readonly resumed: boolean;

  /** `recordGraphs`: each record in a graph of its own, where its statements about shared entities are quads of their own. */
  constructor(
    saved: ExportCounts,
    private readonly recordGraphs: boolean,
  ) {
    this.triplesBefore = saved.triples;
    // a state written before distinct statements were counted: every statement before the resume may be one
    this.distinctBefore = saved.distinctTriples ?? saved.triples;
    this.exactBefore = saved.distinctTriples !== undefined && saved.distinctExact !== false;
    this.resumed = saved.records > 0;
  }

  /** Counts a written record's statements (`counts.triples` already has them). */
  add(counts: ExportCounts, quads: readonly RDF.Quad[]): void {
    if (!this.recordGraphs) this.shared.add(quads);
    counts.distinctTriples =
      this.distinctBefore + (counts.triples - this.triplesBefore) - this.shared.count + this.shared.distinct;
    counts.distinctExact = !this.resumed || (this.exactBefore && this.shared.count === 0);
  }
}
