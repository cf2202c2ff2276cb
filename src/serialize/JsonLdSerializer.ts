import type * as RDF from '@rdfjs/types';
import { formatInfo, type FormatName } from '../formats.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import { baseDirection, blankNodeLabel, escapeIri, serializationError, withSubject } from '../rdf/escape.js';
import { jsonString } from './escape.js';
import { termKey } from '../rdf/termKey.js';
import { groupBySubject, SubjectIndex, type SubjectGroup } from './groupBySubject.js';
import { shippedContext, type JsonLdContextObject } from './jsonldContext.js';
import { RDF_TYPE, XSD_STRING } from '../rdf/prefixes.js';

const LANGUAGE_TAG = /^[a-zA-Z]+(?:-[a-zA-Z0-9]+)*$/;
const GEN_DELIM = /[:/?#[\]@]$/;
const MAX_DEPTH = 64;
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const CACHE_LIMIT = 4096;

/** A term of the context, expanded: its IRI and its type coercion (`@id` or a datatype IRI). */
interface TermDefinition {
  term: string;
  iri: string;
  coerce: string | undefined;
}

/**
 * The compaction tables of a context made only of prefixes and simple term
 * definitions (`"name": "schema:name"`, `{"@id": ..., "@type": "@id" | datatype}`).
 */
export class ContextTables {
  /** Predicate IRI -> the first term defined for it. */
  readonly terms = new Map<string, TermDefinition>();
  /** [prefix, namespace], longest namespace first. */
  readonly prefixes: [string, string][] = [];
  /** Every key of the context: a full IRI whose scheme is one of these would be read as a compact IRI. */
  readonly keys: Set<string>;

  /**
   * @param layers context objects applied in order, as in an `@context` array:
   *   a later layer redefines keys; values of a layer expand against the prefixes
   *   of that layer first, then against the earlier layers.
   */
  constructor(...layers: JsonLdContextObject[]) {
    const active = new Map<string, { iri: string; coerce: string | undefined; prefix: boolean }>();
    for (const layer of layers) {
      const expand = (value: string): string => {
        const colon = value.indexOf(':');
        if (colon > 0) {
          const name = value.slice(0, colon);
          const rest = value.slice(colon + 1);
          if (rest.startsWith('//')) return value;
          const local = layer[name];
          if (typeof local === 'string' && local !== value) return expand(local) + rest;
          const prev = active.get(name);
          if (prev && !(name in layer)) return prev.iri + rest;
        }
        return value;
      };
      for (const [key, def] of Object.entries(layer)) {
        if (key.startsWith('@')) continue;
        const iri = expand(typeof def === 'string' ? def : def['@id']);
        const rawType = typeof def === 'string' ? undefined : def['@type'];
        const coerce = rawType === undefined || rawType === '@id' ? rawType : expand(rawType);
        active.set(key, { iri, coerce, prefix: typeof def === 'string' && GEN_DELIM.test(iri) && !key.includes(':') });
      }
    }
    this.keys = new Set(active.keys());
    for (const [key, { iri, coerce, prefix }] of active) {
      if (prefix) this.prefixes.push([key, iri]);
      else if (!key.includes(':') && !this.terms.has(iri)) this.terms.set(iri, { term: key, iri, coerce });
    }
    this.prefixes.sort((a, b) => b[1].length - a[1].length);
  }

  /**
   * Checks that an absolute IRI reads back as itself when written in full:
   * `schema:x` as an IRI would be taken as a compact IRI.
   */
  checkFullIri(iri: string): string {
    if (!ABSOLUTE_IRI.test(iri)) throw serializationError(`the IRI <${iri}> is not absolute`);
    const colon = iri.indexOf(':');
    if (colon > 0 && this.keys.has(iri.slice(0, colon)) && !iri.startsWith('//', colon + 1)) {
      throw serializationError(
        `the IRI <${iri}> cannot be written in JSON-LD: its scheme "${iri.slice(0, colon)}" is a prefix of the context`,
      );
    }
    return escapeIri(iri);
  }

  /** An IRI in vocabulary position (key, `@type`): a compact IRI when a prefix covers it, else the full IRI. */
  compactVocab(iri: string): string {
    for (const [prefix, ns] of this.prefixes) {
      if (iri.length > ns.length && iri.startsWith(ns) && !iri.startsWith('//', ns.length)) {
        escapeIri(iri);
        return `${prefix}:${iri.slice(ns.length)}`;
      }
    }
    return this.checkFullIri(iri);
  }
}

/** The record writer of JSON-LD: a streamed `@graph`, one node object per record group. */
export class JsonLdWriter implements RecordWriter {
  private readonly tables: ContextTables;
  private readonly vocabCache = new Map<string, string>();
  private readonly propertyCache = new Map<string, { key: string; coerce: string | undefined }>();
  private first = true;

  /**
   * @param contextValue the value written as `@context`
   * @param layers the context objects it amounts to, in order (for compaction)
   */
  constructor(
    private readonly contextValue: unknown,
    layers: JsonLdContextObject[],
  ) {
    this.tables = new ContextTables(...layers);
  }

  start(): string {
    this.first = true;
    return `{"@context":${JSON.stringify(this.contextValue)},\n"@graph":[`;
  }

  continueAfter(records: number): void {
    this.first = records === 0;
  }

  private vocab(iri: string): string {
    let text = this.vocabCache.get(iri);
    if (text === undefined) {
      text = this.tables.compactVocab(iri);
      if (this.vocabCache.size < CACHE_LIMIT) this.vocabCache.set(iri, text);
    }
    return text;
  }

  private id(term: RDF.Term, position: string): string {
    if (term.termType === 'NamedNode') return this.tables.checkFullIri(term.value);
    if (term.termType === 'BlankNode') return `_:${blankNodeLabel(term.value)}`;
    throw serializationError(`a ${term.termType} cannot be the ${position} of a triple`);
  }

  /** A literal as JSON: a value object, or a bare string when the term's coercion (or its absence) already says its type. */
  private literal(term: RDF.Literal, coerce: string | undefined): string {
    const value = jsonString(term.value);
    const language = term.language;
    if (language) {
      if (!LANGUAGE_TAG.test(language)) throw serializationError(`invalid language tag "${language}"`);
      // JSON-LD 1.1 keeps a base direction as `@direction`.
      const direction = baseDirection(term);
      return direction
        ? `{"@value":${value},"@language":"${language}","@direction":"${direction}"}`
        : `{"@value":${value},"@language":"${language}"}`;
    }
    const datatype = term.datatype.value || XSD_STRING;
    if (coerce === undefined ? datatype === XSD_STRING : coerce === datatype) return value;
    if (datatype === XSD_STRING) return `{"@value":${value}}`;
    return `{"@value":${value},"@type":${this.vocabJson(datatype)}}`;
  }

  /** {@link vocab} as a JSON string. */
  private vocabJson(iri: string): string {
    return jsonString(this.vocab(iri));
  }

  /** The JSON key of a predicate (`"name":`, `"bibo:pages":`) and the coercion of its term. */
  private property(iri: string): { key: string; coerce: string | undefined } {
    let p = this.propertyCache.get(iri);
    if (!p) {
      const def = this.tables.terms.get(iri);
      p = { key: `${jsonString(def ? def.term : this.vocab(iri))}:`, coerce: def?.coerce };
      if (this.propertyCache.size < CACHE_LIMIT) this.propertyCache.set(iri, p);
    }
    return p;
  }

  write(quads: readonly RDF.Quad[]): string {
    let subject: RDF.Term | undefined;
    try {
      const groups = groupBySubject(quads);
      if (groups.length === 0) return '';
      // Partition by graph (rare), keeping the order in which graphs appear.
      let partitions: SubjectGroup[][] = [groups];
      if (groups.some((g) => g.graph.termType !== 'DefaultGraph')) {
        const byGraph = new Map<string, SubjectGroup[]>();
        for (const g of groups) {
          const k = termKey(g.graph);
          let list = byGraph.get(k);
          if (!list) byGraph.set(k, (list = []));
          list.push(g);
        }
        partitions = [...byGraph.values()];
      }
      // Every piece is built before any separator is taken: a group refused half-way leaves the array intact.
      const pieces: string[] = [];
      for (const part of partitions) {
        const graph = part[0]!.graph;
        subject = part[0]!.subject;
        const nodes = this.nodes(part, (s) => (subject = s));
        if (graph.termType === 'DefaultGraph') pieces.push(...nodes);
        else pieces.push(`{"@id":${jsonString(this.id(graph, 'graph'))},"@graph":[${nodes.join(',')}]}`);
      }
      let out = '';
      for (const piece of pieces) out += this.separator() + piece;
      return out;
    } catch (error) {
      throw subject ? withSubject(error, subject, 'JSON-LD') : error;
    }
  }

  private separator(): string {
    if (this.first) {
      this.first = false;
      return '\n';
    }
    return ',\n';
  }

  /**
   * Node objects (as JSON text) for the subjects of one graph of a group: the
   * first subject is the root; a subject referenced exactly once in the group
   * is embedded where it is referenced; the others become top-level node objects.
   */
  private nodes(groups: SubjectGroup[], onSubject: (s: RDF.Term) => void): string[] {
    const bySubject = new SubjectIndex();
    for (const g of groups) bySubject.set(g.subject, g);
    const refs = new Map<SubjectGroup, number>();
    if (groups.length > 1) {
      for (const g of groups) {
        for (const { predicate, objects } of g.list) {
          if (predicate.value === RDF_TYPE) continue;
          for (const o of objects) {
            if (o.termType === 'Literal') continue;
            const target = bySubject.get(o);
            if (target) refs.set(target, (refs.get(target) ?? 0) + 1);
          }
        }
      }
    }
    const root = groups[0]!;
    const done = new Set<SubjectGroup>();
    const build = (g: SubjectGroup, depth: number): string => {
      done.add(g);
      onSubject(g.subject);
      let node = `{"@id":${jsonString(this.id(g.subject, 'subject'))}`;
      for (const { predicate, objects } of g.list) {
        const iri = predicate.value;
        if (predicate.termType !== 'NamedNode')
          throw serializationError(`a ${predicate.termType} cannot be a predicate`);
        let values = '';
        let key: string;
        if (iri === RDF_TYPE && objects.every((o) => o.termType === 'NamedNode')) {
          key = '"@type":';
          for (let i = 0; i < objects.length; i++) values += (i ? ',' : '') + this.vocabJson(objects[i]!.value);
        } else {
          const p = this.property(iri);
          key = p.key;
          for (let i = 0; i < objects.length; i++) {
            const o = objects[i]!;
            let v: string;
            if (o.termType === 'Literal') {
              v = this.literal(o, p.coerce);
            } else {
              const found = bySubject.get(o);
              const target =
                found && refs.get(found) === 1 && found !== root && !done.has(found) && depth < MAX_DEPTH
                  ? found
                  : undefined;
              if (target) {
                v = build(target, depth + 1);
                onSubject(g.subject);
              } else {
                const id = jsonString(this.id(o, 'object'));
                v = p.coerce === '@id' ? id : `{"@id":${id}}`;
              }
            }
            values += (i ? ',' : '') + v;
          }
        }
        node += `,${key}${objects.length === 1 ? values : `[${values}]`}`;
      }
      return `${node}}`;
    };
    const nodes: string[] = [];
    for (const g of groups) {
      if (!done.has(g)) nodes.push(build(g, 0));
    }
    return nodes;
  }

  end(): string {
    return this.first ? ']}\n' : '\n]}\n';
  }
}

/**
 * JSON-LD 1.1 (`application/ld+json`), compacted against the context shipped
 * in `vocab/context.jsonld`: `{"@context": ..., "@graph": [` then one node
 * object per record group (its first subject as the root, subjects referenced
 * once in the group nested), one per line, then `]}`. Written by hand, without
 * a JSON-LD processor, so it streams; readable by JSON-LD 1.0 processors too.
 */
export class JsonLdSerializer implements QuadSerializer {
  readonly format: FormatName = 'jsonld';
  readonly mediaType = formatInfo('jsonld').mediaType;
  readonly extensions = formatInfo('jsonld').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    const shipped = shippedContext();
    // Extra prefixes the shipped context lacks (or maps elsewhere) are added after it.
    const extra: JsonLdContextObject = {};
    for (const [prefix, ns] of Object.entries(options.prefixes ?? {})) {
      if (prefix.includes(':') || prefix.startsWith('@') || prefix === '') continue;
      if (shipped[prefix] !== ns) extra[prefix] = ns;
    }
    const hasExtra = Object.keys(extra).length > 0;
    const mode = options.jsonldContext ?? 'inline';
    if (mode === 'inline') {
      // One object: the extra prefixes re-base the shipped terms written with them (schema: https, say).
      const merged: JsonLdContextObject = { ...shipped, ...extra };
      return new JsonLdWriter(merged, [merged]);
    }
    // By URL: the URL must serve the shipped context; extra prefixes follow it in an array.
    return new JsonLdWriter(hasExtra ? [mode, extra] : mode, hasExtra ? [shipped, extra] : [shipped]);
  }
}
