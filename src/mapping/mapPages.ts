import type * as RDF from '@rdfjs/types';
import type { ScholarlyRecord } from '../record/types.js';
import { classifyPages } from './classifyPages.js';
import type { RecordTriples } from './RecordTriples.js';

/**
 * Pages: split (pageStart/pageEnd) or free text (pagination + bibo:pages), never both. The schema.org
 * forms only where their domain holds (`withSchema`: an article or a chapter), the BIBO ones always.
 */
export function mapPages(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode, withSchema: boolean): void {
  const pages = classifyPages(record.startingPage, record.endingPage, {
    onlineFirst: !record.volume && !record.number,
  });
  const start = (value: string) => {
    if (withSchema) t.add(work, t.schema('pageStart'), t.str(value));
    t.add(work, t.bibo('pageStart'), t.str(value));
  };
  const end = (value: string) => {
    if (withSchema) t.add(work, t.schema('pageEnd'), t.str(value));
    t.add(work, t.bibo('pageEnd'), t.str(value));
  };
  switch (pages.kind) {
    case 'split':
      start(pages.start);
      end(pages.end);
      if (pages.numPages !== undefined) t.add(work, t.bibo('numPages'), t.integer(pages.numPages));
      break;
    case 'start':
      start(pages.start);
      break;
    case 'end':
      end(pages.end);
      break;
    case 'pagination':
      if (withSchema) t.add(work, t.schema('pagination'), t.str(pages.text));
      t.add(work, t.bibo('pages'), t.str(pages.text));
      break;
    case 'placeholder':
      t.note(
        `startingPage: "${pages.value}" on an online-first record (no volume, no issue) is a placeholder; no pages written`,
      );
      break;
    case 'none':
      break;
  }
}
