/**
 * The prefixes the serialisers declare by default (Turtle `@prefix`, RDF/XML
 * `xmlns:`, JSON-LD compact IRIs). Plain data: prefix -> namespace IRI.
 */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  schema: 'http://schema.org/',
  bibo: 'http://purl.org/ontology/bibo/',
  dcterms: 'http://purl.org/dc/terms/',
  prism: 'http://prismstandard.org/namespaces/basic/2.0/',
  sr: 'https://w3id.org/scholarly-rdf/vocab#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  prov: 'http://www.w3.org/ns/prov#',
  void: 'http://rdfs.org/ns/void#',
  dcat: 'http://www.w3.org/ns/dcat#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  skos: 'http://www.w3.org/2004/02/skos/core#',
});

/** The RDF namespace. */
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** The XML Schema datatypes namespace. */
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';
/** `rdf:type`. */
export const RDF_TYPE = `${RDF_NS}type`;
/** `xsd:string`, the datatype of simple literals. */
export const XSD_STRING = `${XSD_NS}string`;
/** `rdf:langString`, the datatype of language-tagged literals. */
export const RDF_LANG_STRING = `${RDF_NS}langString`;
