import { NS } from './namespaces.js';
/**
 * The prefixes the serialisers declare by default (Turtle `@prefix`, RDF/XML
 * `xmlns:`, JSON-LD compact IRIs). Plain data: prefix -> namespace IRI.
 */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  schema: NS.schemaHttp,
  bibo: NS.bibo,
  dcterms: NS.dcterms,
  prism: NS.prism,
  sr: NS.sr,
  rdf: NS.rdf,
  rdfs: NS.rdfs,
  xsd: NS.xsd,
  owl: NS.owl,
  prov: NS.prov,
  void: NS.void,
  dcat: NS.dcat,
  foaf: NS.foaf,
  skos: NS.skos,
});

/** The RDF namespace. */
export const RDF_NS = NS.rdf;
/** The XML Schema datatypes namespace. */
export const XSD_NS = NS.xsd;
/** `rdf:type`. */
export const RDF_TYPE = `${RDF_NS}type`;
/** `xsd:string`, the datatype of simple literals. */
export const XSD_STRING = `${XSD_NS}string`;
/** `rdf:langString`, the datatype of language-tagged literals. */
export const RDF_LANG_STRING = `${RDF_NS}langString`;
