import type * as RDF from '@rdfjs/types';

/**
 * A data factory like `base` whose blank nodes are those of one document, labelled by the document's `scope`
 * and what the document says, never by what the thread parsed before (n3's parsers number their blank nodes
 * `b0_`, `b1_`… in the order the thread made them, its factory `n3-0`, `n3-1`…): the same document in the same
 * scope gives the same labels in every thread. A labelled node `_:x` is `<scope>:x`; the nth node written
 * without a label (`[ ]`, a list's cells) is `<scope>a:<n>`. The `:` is in no Turtle, N-Triples or N-Quads label
 * (no record's blank node is one of these), and the two kinds stay apart with the report's labels' other
 * characters made `_`. Give n3's parser `blankNodePrefix: ''` with it, so that it passes the labels as written.
 *
 * @param scope Letters and digits that tell the document apart from the others read with it (`s1`: the first shapes file).
 */
export function scopedBlankNodes(base: RDF.DataFactory, scope: string): RDF.DataFactory {
  let unlabelled = 0;
  return {
    ...base,
    blankNode: (label?: string) =>
      base.blankNode(label === undefined ? `${scope}a:${++unlabelled}` : `${scope}:${label}`),
  };
}
