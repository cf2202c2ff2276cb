import type * as RDF from '@rdfjs/types';
import { formatInfo, type FormatName } from '../formats.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import { baseDirection, blankNodeLabel, escapeIri, serializationError, withSubject } from '../rdf/escape.js';
import { escapeResolvedIri, escapeXmlAttr, escapeXmlText, isNcName, splitIriForXml } from './escape.js';
import { groupBySubject } from './groupBySubject.js';
import { DEFAULT_PREFIXES, RDF_NS, RDF_TYPE, XSD_STRING } from '../rdf/prefixes.js';

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const LANGUAGE_TAG = /^[a-zA-Z]+(?:-[a-zA-Z0-9]+)*$/;
const CACHE_LIMIT = 4096;
/** rdf: names that cannot be property elements (RDF/XML §7.2.5, plus rdf:li which a parser renumbers). */
const FORBIDDEN_PROPERTY = new Set([
  'RDF',
  'ID',
  'about',
  'parseType',
  'resource',
  'nodeID',
  'datatype',
  'Description',
  'aboutEach',
  'aboutEachPrefix',
  'bagID',
  'li',
]);

interface QName {
  prefix: string;
  local: string;
  known: boolean;
  ns: string;
  /** Its property element's tags, once written (known namespaces only: other names depend on the node element). */
  tags?: PropertyTags;
}

/** The pieces of a property element: `  <name`, `  <name rdf:resource="`, `</name>` and a line break. */
interface PropertyTags {
  open: string;
  resource: string;
  close: string;
}

function propertyTags(name: string): PropertyTags {
  return { open: `  <${name}`, resource: `  <${name} rdf:resource="`, close: `</${name}>\n` };
}

/**
 * The record writer of RDF/XML: `<rdf:RDF>` with the known namespaces, then
 * one node element per subject (typed by its first `rdf:type` with a known
 * namespace, else `rdf:Description`). Never uses `rdf:parseType`.
 */
export class RdfXmlWriter implements RecordWriter {
  /** [prefix, namespace], longest namespace first. */
  private readonly namespaces: [string, string][];
  private readonly prefixOf = new Map<string, string>();
  private readonly cache = new Map<string, QName>();
  private readonly typeNames = new Map<string, string>();
  /** The attributes of literals and the `>` after them, by language tag, and by datatype IRI. */
  private readonly languageAttrs = new Map<string, string>();
  private readonly datatypeAttrs = new Map<string, string>();

  constructor(prefixes: Readonly<Record<string, string>>) {
    const entries: [string, string][] = [['rdf', RDF_NS]];
    for (const [p, ns] of Object.entries(prefixes)) {
      if (p === 'rdf' || !isNcName(p) || /^xml/i.test(p) || /^ns[0-9]+$/.test(p) || !ns) continue;
      entries.push([p, ns]);
    }
    for (const [p, ns] of entries) if (!this.prefixOf.has(ns)) this.prefixOf.set(ns, p);
    this.namespaces = entries.sort((a, b) => b[1].length - a[1].length);
  }

  /** Records are independent in this format: nothing to carry over. */
  continueAfter(_records: number): void {}

  start(): string {
    const decls = [...this.namespaces]
      .sort((a, b) => (a[0] === 'rdf' ? -1 : b[0] === 'rdf' ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([p, ns]) => `\n    xmlns:${p}="${escapeXmlAttr(ns)}"`)
      .join('');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF${decls}>\n`;
  }

  /** The qualified name of an IRI: a declared namespace when one covers it with an NCName, else a split to declare locally. */
  private qname(iri: string): QName {
    let q = this.cache.get(iri);
    if (q) return q;
    for (const [prefix, ns] of this.namespaces) {
      if (iri.length > ns.length && iri.startsWith(ns) && isNcName(iri.slice(ns.length))) {
        q = { prefix, local: iri.slice(ns.length), known: true, ns };
        break;
      }
    }
    if (!q) {
      const split = splitIriForXml(iri);
      escapeIri(iri);
      if (!split)
        throw serializationError(`the predicate <${iri}> has no XML local name (no NCName after its last '#' or '/')`);
      const known = this.prefixOf.get(split[0]);
      q = { prefix: known ?? '', local: split[1], known: known !== undefined, ns: split[0] };
    }
    if (this.cache.size < CACHE_LIMIT) this.cache.set(iri, q);
    return q;
  }

  private resourceAttr(term: RDF.Term, position: string): string {
    if (term.termType === 'NamedNode')
      return `rdf:${position === 'subject' ? 'about' : 'resource'}="${this.resourceIri(term.value)}"`;
    if (term.termType === 'BlankNode') return `rdf:nodeID="b${blankNodeLabel(term.value)}"`;
    throw serializationError(`a ${term.termType} cannot be the ${position} of a triple`);
  }

  /** An IRI as the value of `rdf:about` or `rdf:resource`: absolute, no dot segment, escaped. */
  private resourceIri(iri: string): string {
    if (!ABSOLUTE_IRI.test(iri)) throw serializationError(`the IRI <${iri}> is not absolute`);
    return escapeXmlAttr(escapeResolvedIri(iri));
  }

  /** A literal's attributes (`xml:lang`, `rdf:datatype`) and the `>` after them, cached by language tag and datatype. */
  private literalAttrs(o: RDF.Literal): string {
    const language = o.language;
    const attrs = language ? this.languageAttrs : this.datatypeAttrs;
    const key = language || o.datatype.value;
    let text = attrs.get(key);
    if (text === undefined) {
      if (language) {
        if (!LANGUAGE_TAG.test(language)) throw serializationError(`invalid language tag "${language}"`);
        text = ` xml:lang="${language}">`;
      } else if (o.datatype.value !== XSD_STRING && o.datatype.value !== '') {
        text = ` rdf:datatype="${escapeXmlAttr(escapeResolvedIri(o.datatype.value))}">`;
      } else {
        text = '>';
      }
      if (attrs.size < CACHE_LIMIT) attrs.set(key, text);
    }
    // RDF/XML 1.1 has no base direction: refused, never dropped.
    if (language && baseDirection(o)) {
      throw serializationError(
        `the literal "${o.value.slice(0, 40)}"@${language} has an RDF 1.2 base direction (${baseDirection(o)}), which RDF/XML 1.1 cannot carry; write N-Triples, N-Quads, Turtle or JSON-LD`,
      );
    }
    return text;
  }

  write(quads: readonly RDF.Quad[]): string {
    let out = '';
    let subject: RDF.Term | undefined;
    try {
      for (const group of groupBySubject(quads)) {
        subject = group.subject;
        if (group.graph.termType !== 'DefaultGraph') {
          throw serializationError(
            `RDF/XML cannot carry the named graph <${group.graph.value}>; write N-Quads instead`,
          );
        }
        // Namespaces not declared on rdf:RDF get ns0, ns1, ... on this node element.
        const local = new Map<string, string>();
        const name = (q: QName): string => {
          if (q.known) return `${q.prefix}:${q.local}`;
          let p = local.get(q.ns);
          if (!p) local.set(q.ns, (p = `ns${local.size}`));
          return `${p}:${q.local}`;
        };
        let element = 'rdf:Description';
        let body = '';
        let typed = false;
        for (const { predicate, objects } of group.list) {
          const iri = predicate.value;
          if (predicate.termType !== 'NamedNode')
            throw serializationError(`a ${predicate.termType} cannot be a predicate`);
          const q = this.qname(iri);
          if (q.ns === RDF_NS && FORBIDDEN_PROPERTY.has(q.local)) {
            throw serializationError(`RDF/XML cannot write the predicate rdf:${q.local}`);
          }
          const tags = q.known ? (q.tags ??= propertyTags(name(q))) : propertyTags(name(q));
          for (const o of objects) {
            if (!typed && iri === RDF_TYPE && o.termType === 'NamedNode') {
              const t = this.typeName(o.value);
              if (t) {
                element = t;
                typed = true;
                continue;
              }
            }
            if (o.termType === 'Literal') {
              const attrs = this.literalAttrs(o);
              body += tags.open + attrs + escapeXmlText(o.value) + tags.close;
            } else if (o.termType === 'NamedNode') {
              body += tags.resource + this.resourceIri(o.value) + '"/>\n';
            } else {
              body += `${tags.open} ${this.resourceAttr(o, 'object')}/>\n`;
            }
          }
        }
        let decls = '';
        for (const [ns, p] of local) decls += ` xmlns:${p}="${escapeXmlAttr(escapeIri(ns))}"`;
        out += `<${element} ${this.resourceAttr(group.subject, 'subject')}${decls}>\n${body}</${element}>\n`;
      }
    } catch (error) {
      throw subject ? withSubject(error, subject, 'RDF/XML') : error;
    }
    return out;
  }

  /** The element name for a type when it can be a typed node element (declared namespace, not in rdf:), cached. */
  private typeName(iri: string): string | undefined {
    let name = this.typeNames.get(iri);
    if (name === undefined) {
      name = '';
      for (const [prefix, ns] of this.namespaces) {
        if (ns !== RDF_NS && iri.length > ns.length && iri.startsWith(ns) && isNcName(iri.slice(ns.length))) {
          name = `${prefix}:${iri.slice(ns.length)}`;
          break;
        }
      }
      if (this.typeNames.size < CACHE_LIMIT) this.typeNames.set(iri, name);
    }
    return name || undefined;
  }

  end(): string {
    return '</rdf:RDF>\n';
  }
}

/**
 * RDF/XML (`application/rdf+xml`), streamed and hand-written: one node element
 * per subject with `rdf:about`/`rdf:nodeID`, `rdf:resource`, `rdf:datatype`,
 * `xml:lang`; namespaces from the prefixes on `rdf:RDF`, others declared on
 * the node element that uses them. Never writes `rdf:parseType`. Refuses named
 * graphs, predicates without an NCName local part, the rdf: syntax names
 * (`rdf:li`, `rdf:about`, ...) as predicates, and characters XML 1.0 cannot carry.
 */
export class RdfXmlSerializer implements QuadSerializer {
  readonly format: FormatName = 'rdfxml';
  readonly mediaType = formatInfo('rdfxml').mediaType;
  readonly extensions = formatInfo('rdfxml').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    return new RdfXmlWriter(options.prefixes ?? DEFAULT_PREFIXES);
  }
}
