import type * as RDF from '@rdfjs/types';
import { isDoiResolverUrl } from '../record/recordDoi.js';
import type { ScholarlyRecord } from '../record/types.js';
import { type EntityIris, contentHash } from './entityIris.js';
import { toIri } from './iri.js';
import type { RecordTriples } from './RecordTriples.js';

/** Media types of the link formats the service names. */
const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  epub: 'application/epub+zip',
  xml: 'application/xml',
};

/** Links: html page, pdf and other files, the DOI resolver, anything else as text. */
export function mapLinks(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
): void {
  record.urls.forEach((url, i) => {
    const target = toIri(url.value);
    if (!target) {
      t.add(work, t.schema('url'), t.str(url.value));
      t.note(`url[${i}]: "${url.value}" is not an absolute URL; written as text`);
      return;
    }
    const format = url.format.toLowerCase();
    if (format === 'pdf' || (format !== '' && format !== 'html')) {
      // A file is named by its URL (and format), not by its place in the list.
      const media = t.ownIri(iris.owned(doi, `encoding-${contentHash(`${format}\n${target}`)}`), iris.ownedAscii(doi));
      t.add(work, t.schema('encoding'), media);
      t.type(media, t.schema('MediaObject'));
      t.add(media, t.schema('contentUrl'), t.iri(target));
      t.add(media, t.schema('encodingFormat'), t.str(MEDIA_TYPES[format] ?? url.format));
      if (url.platform) t.add(media, t.sr('platform'), t.str(url.platform));
    } else if (format === '' && isDoiResolverUrl(target)) {
      t.add(work, t.schema('sameAs'), t.iri(target));
    } else {
      t.add(work, t.schema('url'), t.iri(target));
    }
  });
}
