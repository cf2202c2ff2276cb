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
  for (const keyword of dedupe([...record.subjects, ...record.keywords]))
    t.add(work, t.schema('keywords'), t.str(keyword));
  let scheme: RDF.NamedNode | undefined;
  const seen = new Set<string>();
  for (const d of record.disciplines) {
    const iri = d.id ? iris.discipline(d.id) : iris.owned(doi, `discipline-${slugSegment(d.term ?? '') || 'unnamed'}`);
    const key = `${iri}\n${d.term ?? ''}`;
    if (seen.has(key)) continue; // the same discipline twice
    seen.add(key);
    const term = t.iri(iri);
    t.add(work, t.schema('about'), term);
    t.type(term, t.schema('DefinedTerm'));
    if (d.id) {
      if (!scheme) {
        scheme = t.iri(iris.disciplineScheme());
        t.type(scheme, t.schema('DefinedTermSet'), t.skos('ConceptScheme'));
      }
      t.type(term, t.skos('Concept'));
      t.add(term, t.schema('inDefinedTermSet'), scheme);
      t.add(term, t.skos('inScheme'), scheme);
      t.add(term, t.schema('identifier'), t.str(d.id));
    }
    if (d.term) t.add(term, t.schema('name'), t.str(d.term));
  }
  for (const genre of dedupe(record.genre)) t.add(work, t.schema('genre'), t.str(genre));
  if (record.copyright) t.add(work, t.schema('copyrightNotice'), t.str(record.copyright));
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
