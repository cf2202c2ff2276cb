import type { Catalogue } from './Catalogue.js';
import { abstractText, doiOf, journalIdOf, namesOf, publicationNameOf, publicationTypeOf } from './recordFields.js';

/** Content type of the JATS answers. */
export const XML_TYPE = 'application/xml; charset=utf-8';

/** What a JATS page is made of. */
export interface JatsPage {
  apiMessage: string;
  query: string;
  apiKey: string;
  s: number;
  p: number;
  /** All matching ids, in catalogue order. */
  ids: Int32Array;
}

/**
 * The XML of a page of `/openaccess/jats`, as the service's open-access
 * endpoint answers it: `<response>` with `apiMessage`, `query`, `apiKey`,
 * `result` (`total`, `start`, `pageLength`, `recordsDisplayed`) and `records`
 * holding one JATS document per record: an `<article>` (front matter:
 * journal and article metadata) for a journal record, a `<book-part-wrapper>`
 * (book and chapter metadata) for a book record. The catalogue holds
 * metadata, not full texts: the documents have no body.
 */
export function searchPageJats(catalogue: Catalogue, page: JatsPage): string {
  const { s, p, ids } = page;
  const pastEnd = s - 1 >= ids.length;
  const pageIds = pastEnd ? new Int32Array(0) : ids.subarray(s - 1, s - 1 + p);
  const records: string[] = [];
  for (const id of pageIds) records.push(jatsDocument(catalogue.record(id)));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<response><apiMessage>${text(page.apiMessage)}</apiMessage><query>${text(page.query)}</query><apiKey>${text(page.apiKey)}</apiKey>` +
    `<result><total>${pastEnd ? 0 : ids.length}</total><start>${s}</start><pageLength>${p}</pageLength><recordsDisplayed>${pageIds.length}</recordsDisplayed></result>` +
    `<records>${records.join('')}</records><facets/></response>`
  );
}

/** One record as a JATS document (front matter only). */
function jatsDocument(r: Record<string, unknown>): string {
  const str = (key: string) => (typeof r[key] === 'string' ? (r[key] as string) : '');
  const el = (name: string, value: string, attrs = '') =>
    value === '' ? '' : `<${name}${attrs}>${text(value)}</${name}>`;
  const lang = str('language') ? ` xml:lang="${attr(str('language'))}"` : '';
  const contribs = namesOf(r)
    .map((name) => {
      const comma = name.indexOf(', ');
      const [surname, given] = comma < 0 ? [name, ''] : [name.slice(0, comma), name.slice(comma + 2)];
      return `<contrib contrib-type="author"><name>${el('surname', surname)}${el('given-names', given)}</name></contrib>`;
    })
    .join('');
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(str('onlineDate') || str('publicationDate'));
  const pubDate = date
    ? `<pub-date publication-format="electronic"><day>${date[3]}</day><month>${date[2]}</month><year>${date[1]}</year></pub-date>`
    : '';
  const abstract = abstractText(r['abstract']);
  const common = `${contribs === '' ? '' : `<contrib-group>${contribs}</contrib-group>`}${pubDate}${abstract === '' ? '' : `<abstract><p>${text(abstract)}</p></abstract>`}`;
  const doi = el('article-id', doiOf(r), ' pub-id-type="doi"');
  if (publicationTypeOf(r) === 'Book') {
    const isbn =
      el('isbn', str('electronicIsbn'), ' content-type="epub"') + el('isbn', str('printIsbn'), ' content-type="ppub"');
    const book = `<book-meta><book-title-group>${el('book-title', publicationNameOf(r))}</book-title-group>${isbn}${el('publisher-name', str('publisher'))}</book-meta>`;
    const chapter = `<book-part book-part-type="chapter"><book-part-meta>${el('book-part-id', doiOf(r), ' book-part-id-type="doi"')}<title-group>${el('title', str('title'))}</title-group>${common}</book-part-meta></book-part>`;
    return `<book-part-wrapper${lang}>${book}${chapter}</book-part-wrapper>`;
  }
  const issn = el('issn', str('issn'), ' pub-type="ppub"') + el('issn', str('eIssn'), ' pub-type="epub"');
  const journal = `<journal-meta>${el('journal-id', journalIdOf(r), ' journal-id-type="publisher-id"')}<journal-title-group>${el('journal-title', publicationNameOf(r))}</journal-title-group>${issn}<publisher>${el('publisher-name', str('publisher'))}</publisher></journal-meta>`;
  const article = `<article-meta>${doi}<title-group>${el('article-title', str('title'))}</title-group>${common}${el('volume', str('volume'))}${el('issue', str('number'))}</article-meta>`;
  return `<article article-type="research-article"${lang}><front>${journal}${article}</front></article>`;
}

/** Text as XML character data: markup characters escaped, characters XML 1.0 cannot carry dropped. */
function text(value: string): string {
  return value
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Text as an XML attribute value (in double quotes). */
function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;');
}
