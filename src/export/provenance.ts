import type * as RDF from '@rdfjs/types';
import { createHash } from 'node:crypto';
import { DataFactory } from 'n3';
import { formatInfo } from '../formats.js';
import { DEFAULT_BASE, NS } from '../mapping/namespaces.js';
import type { ExportCounts, ExportIdentity } from './ExportState.js';

/** What {@link provenanceQuads} describes. */
export interface ProvenanceInput {
  identity: ExportIdentity;
  counts: ExportCounts;
  /** Records per class IRI. */
  classes: Readonly<Record<string, number>>;
  /** The service's notice text, used as the rights statement. */
  apiMessage: string | null;
  startedAt: string;
  endedAt: string;
  /** Graph of the quads (the metadata graph of an N-Quads dump). Defaults to the default graph. */
  graph?: RDF.Quad_Graph;
  /** RDF/JS data factory. Defaults to n3's. */
  factory?: RDF.DataFactory;
}

/**
 * The IRI of a dump: `<base>dump/<hash>` where the hash covers the endpoint,
 * the query and the format, so the same export always gets the same IRI.
 */
export function datasetIri(identity: ExportIdentity): string {
  const key = JSON.stringify([identity.endpoint, identity.query, identity.format, identity.maxRecords, identity.graph]);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${identity.base ?? DEFAULT_BASE}dump/${hash}`;
}

/**
 * The provenance and description of a dump: a PROV-O activity (the endpoint
 * without the key, the query, start and end times, pages and records) and a
 * VoID / DCAT dataset (triples, entities, classes with their partitions, the
 * service's notice as `dcterms:rights`). Deterministic apart from the two
 * times; no blank nodes.
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
  if (input.apiMessage) add(dataset, `${NS.dcterms}rights`, f.literal(input.apiMessage));
  add(dataset, `${NS.void}triples`, int(counts.triples));
  add(dataset, `${NS.void}entities`, int(counts.entities));
  const classNames = Object.keys(input.classes).sort();
  add(dataset, `${NS.void}classes`, int(classNames.length));
  add(dataset, `${NS.void}vocabulary`, iri(NS.schemaHttp));
  add(dataset, `${NS.void}vocabulary`, iri(NS.bibo));
  classNames.forEach((cls, i) => {
    const partition = `${dataset}#class-${i + 1}`;
    add(dataset, `${NS.void}classPartition`, iri(partition));
    add(partition, `${NS.void}class`, iri(cls));
    add(partition, `${NS.void}entities`, int(input.classes[cls]!));
  });
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
  add(activity, `${NS.sr}rejectedRecords`, int(counts.rejects));
  add(activity, `${NS.sr}duplicateRecords`, int(counts.duplicates));
  return quads;
}
