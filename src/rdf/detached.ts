import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';

/**
 * A copy of a string that shares no memory with the string it was sliced
 * from. The strings of parsed terms are often slices of the parser's whole
 * input chunk: kept for long (a key remembered, an example kept for the
 * summary), each would keep its chunk alive.
 */
export function detachedString(s: string): string {
  return Buffer.from(s, 'utf16le').toString('utf16le');
}

/** A copy of a term whose strings share no memory with the input (see {@link detachedString}). */
export function detachedTerm<T extends RDF.Term>(term: T): T {
  switch (term.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(detachedString(term.value)) as unknown as T;
    case 'BlankNode':
      return DataFactory.blankNode(detachedString(term.value)) as unknown as T;
    case 'Literal': {
      const lit = term as RDF.Literal;
      return DataFactory.literal(
        detachedString(lit.value),
        lit.language ? detachedString(lit.language) : DataFactory.namedNode(detachedString(lit.datatype.value)),
      ) as unknown as T;
    }
    default:
      return term;
  }
}
