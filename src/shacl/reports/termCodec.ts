import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { RDF_LANG_STRING, XSD_STRING } from '../../rdf/namespaces.js';

/**
 * A compact, structured-clone-friendly form of RDF terms and quads, for
 * sending records to validation workers and results back (faster than
 * N-Triples text: no escaping, no parsing).
 */
export type EncodedTerm = string;

/** `N<iri>`, `B<label>`, `L<value>\u0000<lang>\u0000<datatype>` (`S<value>` for a plain string). */
export function encodeTerm(t: RDF.Term): EncodedTerm {
  switch (t.termType) {
    case 'NamedNode':
      return `N${t.value}`;
    case 'BlankNode':
      return `B${t.value}`;
    case 'Literal':
      if (!t.language && t.datatype.value === XSD_STRING) return `S${t.value}`;
      return `L${t.value}\u0000${t.language}\u0000${t.language ? '' : t.datatype.value}`;
    default:
      return `N${t.value}`;
  }
}

/** The term of {@link encodeTerm}. */
export function decodeTerm(e: EncodedTerm): RDF.Term {
  const v = e.slice(1);
  switch (e[0]) {
    case 'N':
      return DataFactory.namedNode(v);
    case 'B':
      return DataFactory.blankNode(v);
    case 'S':
      return DataFactory.literal(v);
    default: {
      const a = v.lastIndexOf('\u0000');
      const b = v.lastIndexOf('\u0000', a - 1);
      const lang = v.slice(b + 1, a);
      const dt = v.slice(a + 1);
      return DataFactory.literal(
        v.slice(0, b),
        lang || (dt && dt !== RDF_LANG_STRING ? DataFactory.namedNode(dt) : undefined),
      );
    }
  }
}

/** Quads as a flat array: subject, predicate, object, subject, ... (graphs dropped). */
export function encodeQuads(quads: Iterable<RDF.Quad>): EncodedTerm[] {
  const out: EncodedTerm[] = [];
  for (const q of quads) out.push(encodeTerm(q.subject), q.predicate.value, encodeTerm(q.object));
  return out;
}

/** The quads of {@link encodeQuads}. */
export function decodeQuads(encoded: readonly EncodedTerm[]): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  for (let i = 0; i + 2 < encoded.length; i += 3) {
    out.push(
      DataFactory.quad(
        decodeTerm(encoded[i]!) as RDF.Quad_Subject,
        DataFactory.namedNode(encoded[i + 1]!),
        decodeTerm(encoded[i + 2]!) as RDF.Quad_Object,
      ),
    );
  }
  return out;
}
