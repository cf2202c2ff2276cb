import type * as RDF from '@rdfjs/types';
import { createHash } from 'node:crypto';
import { DataFactory } from 'n3';
import { formatInfo } from '../formats.js';
import { DEFAULT_BASE, NS } from '../rdf/namespaces.js';
import { recordGraphPattern } from '../mapping/recordGraph.js';
import type { ExportCounts, ExportIdentity } from './ExportState.js';

/** What {@link provenanceQuads} describes. */
export interface ProvenanceInput {
  identity: ExportIdentity;
  counts: ExportCounts;
  /** Works (one per record written) per class IRI of the work. */
  classes: Readonly<Record<string, number>>;
  /**
   * Classes of the other nodes written (journals, persons, lists' members, ...).
   * A work class that is also one of these (a book that is a work and a
   * chapter's container) gets a partition without a count. Defaults to none.
   */
  otherClasses?: Iterable<string>;
  /** The service's notice text (`apiMessage`): written as the `dcterms:description` of the source. */
  apiMessage: string | null;
  /** IRI of the dump's licence (`dcterms:license`). Defaults to none (no licence stated). */
  license?: string;
  startedAt: string;
  endedAt: string;
  /** Graph of the quads (the metadata graph of an N-Quads dump). Defaults to the default graph. */
  graph?: RDF.Quad_Graph;
  /** RDF/JS data factory. Defaults to n3's. */
  factory?: RDF.DataFactory;
}

/**
 * The IRI of a dump: `<base>dump/<hash>` where the hash covers the endpoint,
 * the query, the format, the record limit and the graphs, so the same export
 * always gets the same IRI.
 */
export function datasetIri(identity: ExportIdentity): string {
  // A key without graphPerRecord when it is off: the IRIs of such dumps stay what they were.
  const key = JSON.stringify([identity.endpoint, identity.query, identity.format, identity.maxRecords, identity.graph, ...(identity.graphPerRecord ? ['graph-per-record'] : [])]);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${identity.base ?? DEFAULT_BASE}dump/${hash}`;
}

/**
 * The provenance and description of a dump: a PROV-O activity (the endpoint
 * without the key, the query, start and end times, pages, records and the
 * statements written) and a VoID / DCAT dataset (its source, its licence when
 * given, its classes, a class partition with the number of works for each
 * class of the works, the pattern of the record graphs with
 * `graphPerRecord`). The service's notice is the source's
 * `dcterms:description`. Every count is exact although shared nodes are
 * written once per record that names them: there is no `void:triples` (the
 * statements written, repeats included, are `sr:statementsWritten` of the
 * activity) and no `void:entities` of the dump. Deterministic apart from the
 * two times; no blank nodes.
 */
export function provenanceQuads(input: ProvenanceInput): RDF.Quad[] {
  const f = input.factory ?? DataFactory;
  const g = input.graph ?? f.defaultGraph();
  const quads: RDF.Quad[] = [];
  const iri = (v: string) => f.namedNode(v);
  const add = (s: string, p: string, o: RDF.Quad_Object) => quads.push(f.quad(iri(s), iri(p), o, g));
  const int = (n: number) => f.literal(String(n), iri(`${NS.xsd}integer`));
  const dateTime = (v: string) => f.literal(v, iri(`${NS.xsd}dateTime`));
  const { identity, counts } = input;
  const dataset = datasetIri(identity);
  const activity = `${dataset}#export`;
  const distribution = `${dataset}#distribution`;
  const type = `${NS.rdf}type`;

  add(dataset, type, iri(`${NS.void}Dataset`));
  add(dataset, type, iri(`${NS.dcat}Dataset`));
  add(dataset, type, iri(`${NS.prov}Entity`));
  add(dataset, `${NS.dcterms}title`, f.literal(`Records of the query ${identity.query}`));
  add(dataset, `${NS.dcterms}source`, iri(identity.endpoint));
  if (input.license) add(dataset, `${NS.dcterms}license`, iri(input.license));
  // The notice is the service's own text about what it serves (e.g. "This JSON was provided by Springer Nature"): not a licence, not our rights statement.
  if (input.apiMessage) add(identity.endpoint, `${NS.dcterms}description`, f.literal(input.apiMessage));
  const workClasses = Object.keys(input.classes).sort();
  const otherClasses = new Set(input.otherClasses ?? []);
  // Distinct classes of all nodes: a set bounded by the mapper's vocabulary, not by the records.
  add(dataset, `${NS.void}classes`, int(new Set([...workClasses, ...otherClasses]).size));
  add(dataset, `${NS.void}vocabulary`, iri(NS.schemaHttp));
  add(dataset, `${NS.void}vocabulary`, iri(NS.bibo));
  // Partitions of the works' classes: each work is written once, so its count is exact unless other nodes have the class too.
  workClasses.forEach((cls, i) => {
    const partition = `${dataset}#class-${i + 1}`;
    add(dataset, `${NS.void}classPartition`, iri(partition));
    add(partition, `${NS.void}class`, iri(cls));
    if (!otherClasses.has(cls)) add(partition, `${NS.void}entities`, int(input.classes[cls]!));
  });
  if (identity.graphPerRecord) add(dataset, `${NS.sr}recordGraphPattern`, f.literal(recordGraphPattern(identity.base ?? DEFAULT_BASE)));
  add(dataset, `${NS.prov}wasGeneratedBy`, iri(activity));
  add(dataset, `${NS.dcat}distribution`, iri(distribution));
  add(distribution, type, iri(`${NS.dcat}Distribution`));
  const info = formatInfo(identity.format);
  add(distribution, `${NS.dcat}mediaType`, iri(`https://www.iana.org/assignments/media-types/${info.mediaType}`));
  if (identity.gzip) add(distribution, `${NS.dcat}compressFormat`, iri('https://www.iana.org/assignments/media-types/application/gzip'));

  add(activity, type, iri(`${NS.prov}Activity`));
  add(activity, `${NS.prov}used`, iri(identity.endpoint));
  add(activity, `${NS.prov}startedAtTime`, dateTime(input.startedAt));
  add(activity, `${NS.prov}endedAtTime`, dateTime(input.endedAt));
  add(activity, `${NS.prov}wasAssociatedWith`, iri('https://w3id.org/scholarly-rdf/tool'));
  add(activity, `${NS.sr}query`, f.literal(identity.query));
  add(activity, `${NS.sr}pages`, int(counts.pages));
  add(activity, `${NS.sr}records`, int(counts.records));
  add(activity, `${NS.sr}statementsWritten`, int(counts.triples));
  add(activity, `${NS.sr}rejectedRecords`, int(counts.rejects));
  add(activity, `${NS.sr}duplicateRecords`, int(counts.duplicates));
  return quads;
}
