import type * as RDF from '@rdfjs/types';
import { MappingError } from '../errors.js';
import { dataFactory } from '../rdf/dataFactory.js';
import { escapeIri } from '../rdf/escape.js';
import { isLanguageTag } from '../rdf/languageTag.js';
import { DEFAULT_BASE, NS } from '../rdf/namespaces.js';
import { isDoi, recordDoi } from '../record/recordDoi.js';
import type { ScholarlyRecord } from '../record/types.js';
import { EntityIris } from './entityIris.js';
import { mapConferences } from './mapConferences.js';
import { mapContainer } from './mapContainer.js';
import { mapCreators } from './mapCreators.js';
import { mapLinks } from './mapLinks.js';
import { mapPublisher } from './mapPublisher.js';
import { mapSubjects } from './mapSubjects.js';
import { mapWork } from './mapWork.js';
import { RecordTriples } from './RecordTriples.js';
import type { RecordIdentities } from './recordIdentities.js';
import { containerKind, workKind } from './workKind.js';

/** Options of {@link mapRecord} (`mapItem` passes each on by name: a new one goes there too). */
export interface MapOptions {
  /** Base of the IRIs minted for shared entities (`<base>journal/<id>`) and the nodes a record owns (`<base>doi/<doi>#...`). Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** schema.org namespace: `http` (`http://schema.org/`, what schema.org's own RDF uses) or `https`. Defaults to `http`. */
  schemaScheme?: 'http' | 'https';
  /** RDF/JS data factory for the quads. Defaults to the toolkit's own (`rdf/dataFactory.ts`: terms as plain fields, equal to any other factory's). */
  factory?: RDF.DataFactory;
  /** How errors name a record without a DOI. Defaults to `record`. */
  recordLabel?: string;
}

/** The triples of one record and what the mapper noticed. */
export interface MappedRecord {
  /** `https://doi.org/<doi>`. */
  subject: RDF.NamedNode;
  doi: string;
  /**
   * The record's triples: the work's own first, then the nodes it names
   * (shared entities such as its journal or publisher included, so that each
   * record's triples describe it whole).
   */
  quads: RDF.Quad[];
  /** Fields of the record the mapper does not know (reported, never dropped silently). */
  unknownFields: string[];
  /** What was changed or skipped on the way, one line each. */
  notes: string[];
  /** The identities the record gives to shared entities (ORCID persons, its journal), with its names for them. */
  identities: RecordIdentities;
}

/**
 * Maps one normalised record onto schema.org and BIBO triples. Pure: no I/O,
 * the same record always gives the same quads. A record without a usable DOI
 * throws a {@link MappingError} (the DOI is the record's identity). Entities
 * other records may name too (journals, books, publishers, ORCID persons,
 * disciplines) get IRIs from their identifiers (see {@link EntityIris}).
 */
export function mapRecord(record: ScholarlyRecord, options: MapOptions = {}): MappedRecord {
  const doi = recordDoi(record);
  if (!doi)
    throw new MappingError(
      'no DOI (neither "doi" nor "identifier": "doi:...")',
      options.recordLabel ?? 'record',
      'doi',
    );
  if (!isDoi(doi)) throw new MappingError(`"${doi}" is not a DOI (expected 10.<digits>/<suffix>)`, doi, 'doi');

  const base = options.base ?? DEFAULT_BASE;
  const iris = new EntityIris(base);
  const lang = isLanguageTag(record.language ?? '') ? record.language!.toLowerCase() : undefined;
  const t = new RecordTriples(
    options.factory ?? dataFactory,
    options.schemaScheme === 'https' ? NS.schemaHttps : NS.schemaHttp,
    lang,
    [...record.notes],
    isCarriableBase(base),
  );
  const work = t.iri(iris.work(doi));
  const container = containerKind(record);
  const kind = workKind(record, container);

  // The order is the order of the output: the work's own statements first, then the nodes it names.
  mapWork(t, record, doi, work, kind);
  mapCreators(t, record.creators, iris, doi, work);
  mapContainer(t, record, iris, doi, work, kind, container);
  mapPublisher(t, record, iris, work);
  mapLinks(t, record, iris, doi, work);
  mapSubjects(t, record, iris, doi, work);
  mapConferences(t, record, iris, doi, work);
  return {
    subject: work,
    doi,
    quads: t.quads,
    unknownFields: Object.keys(record.unknownFields),
    notes: t.notes,
    identities: t.identities,
  };
}

let lastBase = DEFAULT_BASE;
let lastBaseCarriable = true;

/**
 * Whether a base holds only characters an IRI may carry in every format (the writers' check, `escapeIri`):
 * then the IRIs minted from it need no check of their own. Remembered for the last base (one per run).
 */
function isCarriableBase(base: string): boolean {
  if (base !== lastBase) {
    lastBase = base;
    try {
      lastBaseCarriable = escapeIri(base) === base;
    } catch {
      lastBaseCarriable = false;
    }
  }
  return lastBaseCarriable;
}
