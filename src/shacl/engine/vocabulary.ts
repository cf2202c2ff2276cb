import { NS } from '../../rdf/namespaces.js';
/** The IRIs the SHACL Core engine reads: SHACL, RDF, RDFS and XSD names. */
export const SH = NS.sh;
export const RDF_NS = NS.rdf;
export const RDFS = NS.rdfs;
export const XSD = NS.xsd;

export const RDF_TYPE = `${RDF_NS}type`;
export const RDF_FIRST = `${RDF_NS}first`;
export const RDF_REST = `${RDF_NS}rest`;
export const RDF_NIL = `${RDF_NS}nil`;
export const RDF_LANG_STRING = `${RDF_NS}langString`;
export const RDFS_SUBCLASS_OF = `${RDFS}subClassOf`;
export const RDFS_CLASS = `${RDFS}Class`;
export const XSD_STRING = `${XSD}string`;
