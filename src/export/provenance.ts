import type * as RDF from '@rdfjs/types';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataFactory } from 'n3';
import { formatInfo } from '../formats.js';
import { DEFAULT_BASE, NS } from '../rdf/namespaces.js';
import { recordGraphPattern } from '../mapping/recordGraph.js';
import type { ExportCounts, ExportIdentity } from './ExportState.js';
import { datasetIri } from './datasetIri.js';
import type { ShardEntry } from '../output/ShardManifest.js';

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
  /** The shards of a sharded dump, and the folder they are in (their `file:` URLs are written). Defaults to none (one file). */
  shards?: { entries: readonly ShardEntry[]; folder: string };
  /** The query sent to the service (a delta's has its `onlinedatefrom:` term). Defaults to `identity.query`. */
  querySent?: string;
  /** A delta of `changesSince`: the dataset IRI of the export it follows (`prov:wasDerivedFrom`). Defaults to none. */
  previousDataset?: string;
}

/**
 * The provenance and description of a dump: a PROV-O activity (the endpoint
 * without the key, the query, start and end times, pages, records and the
 * statements written) and a VoID / DCAT dataset (its source, its licence when
 * given, its classes, a class partition with the number of works for each
 * class of the works, the pattern of the record graphs with
 * `graphPerRecord`). The service's notice is the source's
 * `dcterms:description`. A sharded dump has a distribution per shard (see
 * {@link shardQuads}). Every count is exact although shared nodes are
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
  add(
    dataset,
    `${NS.dcterms}title`,
    f.literal(
      `Records of the query ${identity.query}${identity.since !== undefined ? ` online since ${identity.since}` : ''}`,
    ),
  );
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
  if (identity.graphPerRecord)
    add(dataset, `${NS.sr}recordGraphPattern`, f.literal(recordGraphPattern(identity.base ?? DEFAULT_BASE)));
  if (identity.since !== undefined) quads.push(...deltaQuads(dataset, identity.since, input.previousDataset, f, g));
  add(dataset, `${NS.prov}wasGeneratedBy`, iri(activity));
  add(dataset, `${NS.dcat}distribution`, iri(distribution));
  add(distribution, type, iri(`${NS.dcat}Distribution`));
  const info = formatInfo(identity.format);
  add(distribution, `${NS.dcat}mediaType`, iri(`https://www.iana.org/assignments/media-types/${info.mediaType}`));
  if (identity.gzip)
    add(distribution, `${NS.dcat}compressFormat`, iri('https://www.iana.org/assignments/media-types/application/gzip'));
  if (input.shards) quads.push(...shardQuads(dataset, input.shards.entries, input.shards.folder, identity, f, g));

  add(activity, type, iri(`${NS.prov}Activity`));
  add(activity, `${NS.prov}used`, iri(identity.endpoint));
  add(activity, `${NS.prov}startedAtTime`, dateTime(input.startedAt));
  add(activity, `${NS.prov}endedAtTime`, dateTime(input.endedAt));
  add(activity, `${NS.prov}wasAssociatedWith`, iri('https://w3id.org/scholarly-rdf/tool'));
  add(activity, `${NS.sr}query`, f.literal(input.querySent ?? identity.query));
  add(activity, `${NS.sr}pages`, int(counts.pages));
  add(activity, `${NS.sr}records`, int(counts.records));
  add(activity, `${NS.sr}statementsWritten`, int(counts.triples));
  add(activity, `${NS.sr}rejectedRecords`, int(counts.rejects));
  add(activity, `${NS.sr}duplicateRecords`, int(counts.duplicates));
  return quads;
}

/**
 * The shards of a dump, in its description: each a `dcat:Distribution` of
 * the dataset (`<dataset>#shard-00001`) and its `void:dataDump`, with its
 * `file:` URL (`dcat:downloadURL`), name (`dcterms:title`), media type,
 * `dcat:byteSize`, `spdx:checksum` (SHA-256, a node `<…#shard-00001-sha256>`)
 * and `void:triples`: the statements written in it, repeats included (a
 * shared node is written again by every record that names it; a store
 * holds each triple once).
 */
export function shardQuads(
  dataset: string,
  entries: readonly ShardEntry[],
  folder: string,
  identity: ExportIdentity,
  f: RDF.DataFactory,
  g: RDF.Quad_Graph,
): RDF.Quad[] {
  const quads: RDF.Quad[] = [];
  const iri = (v: string) => f.namedNode(v);
  const add = (s: string, p: string, o: RDF.Quad_Object) => quads.push(f.quad(iri(s), iri(p), o, g));
  const typed = (n: number | string, type: string) => f.literal(String(n), iri(type));
  const info = formatInfo(identity.format);
  entries.forEach((entry, i) => {
    const shard = `${dataset}#shard-${String(i + 1).padStart(5, '0')}`;
    const url = pathToFileURL(resolve(folder, entry.file)).href;
    add(dataset, `${NS.dcat}distribution`, iri(shard));
    add(dataset, `${NS.void}dataDump`, iri(url));
    add(shard, `${NS.rdf}type`, iri(`${NS.dcat}Distribution`));
    add(shard, `${NS.dcterms}title`, f.literal(entry.file));
    add(shard, `${NS.dcat}downloadURL`, iri(url));
    add(shard, `${NS.dcat}mediaType`, iri(`https://www.iana.org/assignments/media-types/${info.mediaType}`));
    if (identity.gzip)
      add(shard, `${NS.dcat}compressFormat`, iri('https://www.iana.org/assignments/media-types/application/gzip'));
    add(shard, `${NS.dcat}byteSize`, typed(entry.bytes, `${NS.xsd}nonNegativeInteger`));
    add(shard, `${NS.void}triples`, typed(entry.triples, `${NS.xsd}integer`));
    const checksum = `${shard}-sha256`;
    add(shard, `${SPDX}checksum`, iri(checksum));
    add(checksum, `${NS.rdf}type`, iri(`${SPDX}Checksum`));
    add(checksum, `${SPDX}algorithm`, iri(`${SPDX}checksumAlgorithm_sha256`));
    add(checksum, `${SPDX}checksumValue`, typed(entry.sha256, `${NS.xsd}hexBinary`));
  });
  return quads;
}

/**
 * What a delta covers: the records online on or after `since` (a
 * `dcterms:temporal` period `<dataset>#online-since` with its
 * `dcat:startDate`), and the dump it follows (`prov:wasDerivedFrom`).
 */
function deltaQuads(
  dataset: string,
  since: string,
  previous: string | undefined,
  f: RDF.DataFactory,
  g: RDF.Quad_Graph,
): RDF.Quad[] {
  const iri = (v: string) => f.namedNode(v);
  const period = `${dataset}#online-since`;
  const quads = [
    f.quad(iri(dataset), iri(`${NS.dcterms}temporal`), iri(period), g),
    f.quad(iri(period), iri(`${NS.rdf}type`), iri(`${NS.dcterms}PeriodOfTime`), g),
    f.quad(iri(period), iri(`${NS.dcat}startDate`), f.literal(since, iri(`${NS.xsd}date`)), g),
    f.quad(
      iri(period),
      iri(`${NS.dcterms}description`),
      f.literal(
        `The records the service lists with an onlineDate on or after ${since}; records changed after they went online are not listed again (the service has no modification date).`,
      ),
      g,
    ),
  ];
  if (previous !== undefined) quads.push(f.quad(iri(dataset), iri(`${NS.prov}wasDerivedFrom`), iri(previous), g));
  return quads;
}

/** The SPDX namespace (checksums of files, as DCAT 3 uses them). */
const SPDX = 'http://spdx.org/rdf/terms#';
