import type * as RDF from '@rdfjs/types';
import type { ScholarlyRecord } from '../record/types.js';
import { type EntityIris, slug } from './entityIris.js';
import type { RecordTriples } from './RecordTriples.js';

/**
 * The publisher, one node per normalised name. `publisher` is the service's
 * short label of the publishing house, `publisherName` its full name; when
 * they name two organisations (`Springer` and `BioMed Central`), the work's
 * `schema:publisher` is the house and its `schema:publisherImprint` the
 * imprint that published it: nothing is said of one organisation that is
 * true of the other only.
 */
export function mapPublisher(t: RecordTriples, record: ScholarlyRecord, iris: EntityIris, work: RDF.NamedNode): void {
  const { publisher, publisherName } = record;
  const org = (name: string) => {
    const node = t.sharedIri(iris.publisher(name), iris);
    t.type(node, t.schema('Organization'));
    t.add(node, t.schema('name'), t.str(name));
    return node;
  };
  if (publisher && publisherName && slug(publisher) !== slug(publisherName)) {
    t.add(work, t.schema('publisher'), org(publisher));
    t.add(work, t.schema('publisherImprint'), org(publisherName));
  } else if (publisher || publisherName) {
    t.add(work, t.schema('publisher'), org(publisherName ?? publisher!));
  }
}
