/** The IRIs the SHACL Core engine reads: SHACL, RDF, RDFS and XSD names. */
export const SH = 'http://www.w3.org/ns/shacl#';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

export const RDF_TYPE = `${RDF_NS}type`;
export const RDF_FIRST = `${RDF_NS}first`;
export const RDF_REST = `${RDF_NS}rest`;
export const RDF_NIL = `${RDF_NS}nil`;
export const RDF_LANG_STRING = `${RDF_NS}langString`;
export const RDFS_SUBCLASS_OF = `${RDFS}subClassOf`;
export const RDFS_CLASS = `${RDFS}Class`;
export const XSD_STRING = `${XSD}string`;
