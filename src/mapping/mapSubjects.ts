import type * as RDF from '@rdfjs/types';
import type { ScholarlyRecord } from '../record/types.js';
import { type EntityIris, slugSegment } from './entityIris.js';
import type { RecordTriples } from './RecordTriples.js';

/**
 * Keywords, disciplines and genres. A discipline with an id is a concept of
 * the service's scheme (`<base>discipline/<id>`, shared by every record);
 * one without is the record's own node, named by its term.
 */
export function mapSubjects(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
): void {
  addDistinct(t, work, t.schema('keywords'), record.subjects, record.keywords);
  let scheme: RDF.NamedNode | undefined;
  const seen = new Set<string>();
  for (const d of record.disciplines) {
    const iri = d.id ? iris.discipline(d.id) : iris.owned(doi, `discipline-${slugSegment(d.term ?? '') || 'unnamed'}`);
    const key = `${iri}\n${d.term ?? ''}`;
    if (seen.has(key)) continue; // the same discipline twice
    seen.add(key);
    const term = t.sharedIri(iri, iris);
    t.add(work, t.schema('about'), term);
    t.type(term, t.schema('DefinedTerm'));
    if (d.id) {
      if (!scheme) {
        scheme = t.sharedIri(iris.disciplineScheme(), iris);
        t.type(scheme, t.schema('DefinedTermSet'), t.skos('ConceptScheme'));
      }
      t.type(term, t.skos('Concept'));
      t.add(term, t.schema('inDefinedTermSet'), scheme);
      t.add(term, t.skos('inScheme'), scheme);
      t.add(term, t.schema('identifier'), t.str(d.id));
    }
    if (d.term) t.add(term, t.schema('name'), t.str(d.term));
  }
  addDistinct(t, work, t.schema('genre'), record.genre);
  if (record.copyright) t.add(work, t.schema('copyrightNotice'), t.str(record.copyright));
}

/**
 * `W p "v"` for each value of `values`, then of `more`, once each (where it first comes). A few values (most
 * records') are compared with those before them, with no set or joined list made; many go through a set.
 */
function addDistinct(
  t: RecordTriples,
  work: RDF.NamedNode,
  p: RDF.NamedNode,
  values: readonly string[],
  more: readonly string[] = NO_VALUES,
): void {
  if (values.length + more.length > FEW_VALUES) {
    for (const value of new Set([...values, ...more])) t.add(work, p, t.str(value));
    return;
  }
  for (let i = 0; i < values.length; i++) if (!among(values, i, values[i]!)) t.add(work, p, t.str(values[i]!));
  for (let i = 0; i < more.length; i++)
    if (!among(values, values.length, more[i]!) && !among(more, i, more[i]!)) t.add(work, p, t.str(more[i]!));
}

const NO_VALUES: readonly string[] = [];

/** Lists of values up to this long are made distinct by comparing each value with those before it. */
const FEW_VALUES = 32;

/** Whether `value` is one of the first `end` of `values`. */
function among(values: readonly string[], end: number, value: string): boolean {
  for (let i = 0; i < end; i++) if (values[i] === value) return true;
  return false;
}
