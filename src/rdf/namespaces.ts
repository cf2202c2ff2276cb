/** Namespace IRIs of the vocabularies the toolkit writes and reads. Plain data (the mapper imports nothing else of the vocabularies). */
export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  sh: 'http://www.w3.org/ns/shacl#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  schemaHttp: 'http://schema.org/',
  schemaHttps: 'https://schema.org/',
  bibo: 'http://purl.org/ontology/bibo/',
  dcterms: 'http://purl.org/dc/terms/',
  prism: 'http://prismstandard.org/namespaces/basic/2.0/',
  sr: 'https://w3id.org/scholarly-rdf/vocab#',
  prov: 'http://www.w3.org/ns/prov#',
  void: 'http://rdfs.org/ns/void#',
  dcat: 'http://www.w3.org/ns/dcat#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  skos: 'http://www.w3.org/2004/02/skos/core#',
} as const;

/** `rdf:type`. */
export const RDF_TYPE = `${NS.rdf}type`;
/** `rdf:langString`, the datatype of a literal with a language tag. */
export const RDF_LANG_STRING = `${NS.rdf}langString`;
/** `rdf:dirLangString` (RDF 1.2), the datatype of a literal with a language tag and a base direction. */
export const RDF_DIR_LANG_STRING = `${NS.rdf}dirLangString`;
/** `xsd:string`, the datatype of a plain literal. */
export const XSD_STRING = `${NS.xsd}string`;
/** `rdfs:subClassOf`. */
export const RDFS_SUBCLASS_OF = `${NS.rdfs}subClassOf`;

/** Default base of the IRIs the mapper mints (shared entities and the nodes a record owns). */
export const DEFAULT_BASE = 'https://w3id.org/scholarly-rdf/';

/** Where DOIs resolve: the subject of a record is `DOI_RESOLVER + doi`. */
export const DOI_RESOLVER = 'https://doi.org/';

/** The DOI resolver's older http form: the IRI Crossref's RDF names works by (`owl:sameAs` from a work). */
export const DX_DOI_RESOLVER = 'http://dx.doi.org/';

/** Where ORCID iDs resolve. */
export const ORCID_RESOLVER = 'https://orcid.org/';

/** The ORCID resolver's http form: the IRI Crossref's RDF names ORCID persons by (`owl:sameAs` from a person). */
export const ORCID_HTTP_RESOLVER = 'http://orcid.org/';

/** The URN of an ISSN (RFC 3044): one continuing resource, named alike by every source (`owl:sameAs` from a journal). */
export const ISSN_URN = 'urn:issn:';

/** Where ISSNs resolve: the ISSN Portal's page of an ISSN, linked from a journal or series with `schema:sameAs`. */
export const ISSN_RESOLVER = 'https://portal.issn.org/resource/ISSN/';
