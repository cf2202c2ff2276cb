import type * as RDF from '@rdfjs/types';
import { fillMessage, NATIVE_CONSTRAINTS } from './nativeConstraints.js';
import { conforms, validateShape, type Check, type RunContext } from './CompiledShape.js';
import {
  each,
  integer,
  listOf,
  reporter,
  set,
  shapeRef,
  UnsupportedShapes,
  type CompileContext,
} from './compileContext.js';
import { codePointLength, compareTerms, formTest, languageMatches } from './literals.js';
import { termText } from './messages.js';
import { SH } from './vocabulary.js';

/** The message of `sh:hasValue` on a node shape. */
const NODE_HAS_VALUE = 'Value must be {$hasValue}';

/** The values a pattern's answers are remembered for at most (then it starts again). */
const PATTERN_ANSWERS_KEPT = 4096;

/** Each pattern's test (by flags and source), shared by the shapes that give the same pattern. */
const PATTERN_TESTS = new Map<string, (value: string) => boolean>();

/**
 * Whether a value matches a pattern, each distinct value tested once: the shipped shapes check the IRIs of authors,
 * journals, publishers and lists with one long expression, and the same IRI comes back through several shapes
 * (`schema:author` and `rdf:first`) and in record after record (a journal, a publisher).
 */
function patternTest(source: string, flags: string): (value: string) => boolean {
  const id = `${flags}/${source}`;
  let test = PATTERN_TESTS.get(id);
  if (test) return test;
  const re = new RegExp(source, flags);
  let answers = new Map<string, boolean>();
  test = (value) => {
    let answer = answers.get(value);
    if (answer === undefined) {
      answer = re.test(value);
      if (answers.size >= PATTERN_ANSWERS_KEPT) answers = new Map();
      answers.set(value, answer);
    }
    return answer;
  };
  PATTERN_TESTS.set(id, test);
  return test;
}

/** A term's parameter text in messages. */
const p = termText;

/** The compilers of SHACL Core's constraint components, by the parameter that triggers them (its local name). */
export const COMPILERS: Readonly<Record<string, (c: CompileContext, value: RDF.Term) => Check[]>> = {
  class: (c, cls) => {
    const fail = reporter(c, 'Class', { class: p(cls) });
    return [each((x, focus, v) => (v.termType !== 'Literal' && x.isInstance(v, cls)) || fail(x, focus, v))];
  },
  datatype: (c, dt) => {
    const fail = reporter(c, 'Datatype', { datatype: p(dt) });
    const iri = dt.value;
    const form = formTest(iri);
    // A record's datatypes are interned with the shapes' terms: the same object, as a rule.
    return [
      each(
        (x, focus, v) =>
          (v.termType === 'Literal' && (v.datatype === dt || v.datatype.value === iri) && form(v.value, v.language)) ||
          fail(x, focus, v),
      ),
    ];
  },
  nodeKind: (c, kind) => {
    const local = kind.value.startsWith(SH) ? kind.value.slice(SH.length) : '';
    const allowed = {
      IRI: ['NamedNode'],
      BlankNode: ['BlankNode'],
      Literal: ['Literal'],
      BlankNodeOrIRI: ['BlankNode', 'NamedNode'],
      BlankNodeOrLiteral: ['BlankNode', 'Literal'],
      IRIOrLiteral: ['NamedNode', 'Literal'],
    }[local];
    if (!allowed) throw new Error(`sh:nodeKind of ${c.shapes.label(c.shape.term)} is not a node kind: ${p(kind)}`);
    const fail = reporter(c, 'NodeKind', { nodeKind: p(kind) });
    const iri = allowed.includes('NamedNode');
    const blank = allowed.includes('BlankNode');
    const literal = allowed.includes('Literal');
    return [
      each((x, focus, v) => {
        const t = v.termType;
        return (t === 'NamedNode' ? iri : t === 'Literal' ? literal : t === 'BlankNode' && blank) || fail(x, focus, v);
      }),
    ];
  },
  minCount: (c, n) => {
    const min = integer(c, n, 'minCount');
    const fail = reporter(c, 'MinCount', { minCount: n.value });
    return [set((x, focus, values) => values.length >= min || fail(x, focus, undefined))];
  },
  maxCount: (c, n) => {
    const max = integer(c, n, 'maxCount');
    const fail = reporter(c, 'MaxCount', { maxCount: n.value });
    return [set((x, focus, values) => values.length <= max || fail(x, focus, undefined))];
  },
  minExclusive: (c, bound) => range(c, bound, 'MinExclusive', (r) => r > 0),
  minInclusive: (c, bound) => range(c, bound, 'MinInclusive', (r) => r >= 0),
  maxExclusive: (c, bound) => range(c, bound, 'MaxExclusive', (r) => r < 0),
  maxInclusive: (c, bound) => range(c, bound, 'MaxInclusive', (r) => r <= 0),
  minLength: (c, n) => {
    const min = integer(c, n, 'minLength');
    const fail = reporter(c, 'MinLength', { minLength: n.value });
    return [
      each((x, focus, v) => (v.termType !== 'BlankNode' && codePointLength(v.value) >= min) || fail(x, focus, v)),
    ];
  },
  maxLength: (c, n) => {
    const max = integer(c, n, 'maxLength');
    const fail = reporter(c, 'MaxLength', { maxLength: n.value });
    return [
      each(
        (x, focus, v) =>
          (v.termType !== 'BlankNode' && (v.value.length <= max || codePointLength(v.value) <= max)) ||
          fail(x, focus, v),
      ),
    ];
  },
  pattern: (c, pattern) => {
    const flags = c.shapes.one(c.shape.term, `${SH}flags`)?.value ?? '';
    const matches = patternTest(pattern.value, flags.replace(/[^imsu]/g, ''));
    const fail = reporter(c, 'Pattern', { pattern: p(pattern), flags });
    return [each((x, focus, v) => (v.termType !== 'BlankNode' && matches(v.value)) || fail(x, focus, v))];
  },
  languageIn: (c, list) => {
    const ranges = [...new Set(listOf(c, list, 'languageIn').map((t) => t.value))];
    const fail = reporter(c, 'LanguageIn', { languageIn: ranges.join(', ') });
    return [
      each(
        (x, focus, v) =>
          (v.termType === 'Literal' && ranges.some((r) => languageMatches(v.language, r))) || fail(x, focus, v),
      ),
    ];
  },
  uniqueLang: (c, flag) => {
    if (flag.value !== 'true') return [];
    const fail = reporter(c, 'UniqueLang', {});
    return [
      set((x, focus, values) => {
        const seen = new Map<string, number>();
        for (const v of values)
          if (v.termType === 'Literal' && v.language)
            seen.set(v.language.toLowerCase(), (seen.get(v.language.toLowerCase()) ?? 0) + 1);
        let ok = true;
        for (const [lang, n] of seen)
          if (n > 1) ok = fail(x, focus, undefined, { parameters: { lang: JSON.stringify(lang) } });
        return ok;
      }),
    ];
  },
  equals: (c, predicate) => {
    const fail = reporter(c, 'Equals', { equals: p(predicate) });
    return [
      set((x, focus, values) => {
        const others = x.index.objects(focus, predicate);
        let ok = true;
        for (const v of values) if (!others.includes(v)) ok = fail(x, focus, v);
        // (The record's triples are distinct: so are a node's objects of one predicate.)
        for (const o of others) if (!values.includes(o)) ok = fail(x, focus, o);
        return ok;
      }),
    ];
  },
  disjoint: (c, predicate) => {
    const fail = reporter(c, 'Disjoint', { disjoint: p(predicate) });
    return [each((x, focus, v) => !x.index.objects(focus, predicate).includes(v) || fail(x, focus, v))];
  },
  lessThan: (c, predicate) => order(c, predicate, 'LessThan', (r) => r < 0),
  lessThanOrEquals: (c, predicate) => order(c, predicate, 'LessThanOrEquals', (r) => r <= 0),
  not: (c, node) => {
    const fail = reporter(c, 'Not', { not: p(node) });
    const shape = shapeRef(c, node);
    return [each((x, focus, v) => !conforms(shape(), v, x) || fail(x, focus, v))];
  },
  and: (c, list) => logical(c, list, 'And', (n, total) => n === total),
  or: (c, list) => logical(c, list, 'Or', (n) => n > 0),
  xone: (c, list) => logical(c, list, 'Xone', (n) => n === 1),
  node: (c, node) => {
    const fail = reporter(c, 'Node', { node: p(node) });
    const shape = shapeRef(c, node);
    return [each((x, focus, v) => conforms(shape(), v, x) || fail(x, focus, v))];
  },
  property: (c, node) => {
    const shape = shapeRef(c, node);
    return [each((x, _focus, v) => validateShape(shape(), v, x))];
  },
  qualifiedValueShape: (c, node) => qualified(c, node),
  closed: (c, flag) => {
    if (flag.value !== 'true') return [];
    const allowed = new Set<RDF.Term>();
    for (const property of c.shapes.objects(c.shape.term, `${SH}property`)) {
      const path = c.shapes.one(property, `${SH}path`);
      if (path?.termType === 'NamedNode') allowed.add(path);
    }
    const ignored = c.shapes.one(c.shape.term, `${SH}ignoredProperties`);
    if (ignored) for (const t of listOf(c, ignored, 'ignoredProperties')) allowed.add(t);
    const fail = reporter(c, 'Closed', {});
    return [
      each((x, focus, v) => {
        const pairs = x.index.pairsOf(v);
        let ok = true;
        for (let i = 0; i < pairs.length; i += 2) {
          const predicate = pairs[i]!;
          if (!allowed.has(predicate))
            ok = fail(x, focus, pairs[i + 1], {
              path: [{ predicates: [predicate as RDF.NamedNode], inverse: false, quantifier: 'one' }],
            });
          if (!ok && !x.out) return false;
        }
        return ok;
      }),
    ];
  },
  hasValue: (c, value) => {
    const fail = reporter(c, 'HasValue', { hasValue: p(value) }, c.shape.path ? undefined : NODE_HAS_VALUE);
    return [set((x, focus, values) => values.includes(value) || fail(x, focus, undefined))];
  },
  in: (c, list) => {
    const members = new Set(listOf(c, list, 'in'));
    const fail = reporter(c, 'In', { in: [...members].map((m) => m.value).join(', ') });
    return [each((x, focus, v) => members.has(v) || fail(x, focus, v))];
  },
  sparql: (c, constraint) => {
    if (c.shapes.one(constraint, `${SH}deactivated`)?.value === 'true') return [];
    const native = constraint.termType === 'NamedNode' ? NATIVE_CONSTRAINTS.get(constraint.value) : undefined;
    if (!native)
      throw new UnsupportedShapes(`the SPARQL constraint ${c.shapes.label(constraint)} has no native implementation`);
    const messages = c.shapes.objects(constraint, `${SH}message`).map((m) => m.value);
    const fail = reporter(c, 'SPARQL', {});
    return [
      each((x, focus, v) => {
        const rows = native(v, x.index as unknown as RDF.DatasetCore);
        for (const row of rows) {
          const vars: Record<string, string> = { ...row.bindings, value: sparqlText(row.value), this: sparqlText(v) };
          const path = row.path
            ? [{ predicates: [row.path], inverse: false, quantifier: 'one' as const }]
            : c.shape.resultPath;
          fail(x, focus, row.value, { path, message: messages.map((m) => fillMessage(m, vars)), source: constraint });
          if (!x.out) return false;
        }
        return rows.length === 0;
      }),
    ];
  },
};

/** A term as the native SPARQL constraints' messages show it. */
function sparqlText(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType === 'Literal') return JSON.stringify(term.value) + (term.language ? `@${term.language}` : '');
  return `_:${term.value}`;
}

function range(c: CompileContext, bound: RDF.Term, component: string, holds: (r: number) => boolean): Check[] {
  const name = component[0]!.toLowerCase() + component.slice(1);
  const fail = reporter(c, component, { [name]: p(bound) });
  return [
    each((x, focus, v) => {
      const r = compareTerms(v, bound);
      return (r !== undefined && holds(r)) || fail(x, focus, v);
    }),
  ];
}

function order(c: CompileContext, predicate: RDF.Term, component: string, holds: (r: number) => boolean): Check[] {
  const name = component[0]!.toLowerCase() + component.slice(1);
  const fail = reporter(c, component, { [name]: p(predicate) });
  return [
    set((x, focus, values) => {
      const others = x.index.objects(focus, predicate);
      let ok = true;
      for (const v of values) {
        for (const o of others) {
          const r = compareTerms(v, o);
          if (r === undefined || !holds(r)) {
            ok = fail(x, focus, v);
            if (!x.out) return false;
          }
        }
      }
      return ok;
    }),
  ];
}

function logical(
  c: CompileContext,
  list: RDF.Term,
  component: 'And' | 'Or' | 'Xone',
  holds: (conforming: number, total: number) => boolean,
): Check[] {
  const members = listOf(c, list, component.toLowerCase()).map((m) => shapeRef(c, m));
  const fail = reporter(c, component, {});
  return [
    each((x, focus, v) => {
      let n = 0;
      for (const m of members) {
        if (conforms(m(), v, x)) n++;
        else if (component === 'And') break;
        if (component === 'Or' && n > 0) break;
      }
      return holds(n, members.length) || fail(x, focus, v);
    }),
  ];
}

function qualified(c: CompileContext, node: RDF.Term): Check[] {
  const shape = c.shape.term;
  const min = c.shapes.one(shape, `${SH}qualifiedMinCount`);
  const max = c.shapes.one(shape, `${SH}qualifiedMaxCount`);
  const disjoint = c.shapes.one(shape, `${SH}qualifiedValueShapesDisjoint`)?.value === 'true';
  // The sibling shapes: the qualified value shapes of the other property shapes of this shape's parents.
  const siblings: RDF.Term[] = [];
  if (disjoint) {
    for (const parent of c.parentsOf(shape)) {
      for (const property of c.shapes.objects(parent, `${SH}property`)) {
        for (const q of c.shapes.objects(property, `${SH}qualifiedValueShape`))
          if (q !== node && !siblings.includes(q)) siblings.push(q);
      }
    }
  }
  const qualifiedShape = shapeRef(c, node);
  const others = siblings.map((s) => shapeRef(c, s));
  const count = (x: RunContext, values: readonly RDF.Term[]) => {
    let n = 0;
    for (const v of values) {
      if (!conforms(qualifiedShape(), v, x)) continue;
      if (others.some((s) => conforms(s(), v, x))) continue;
      n++;
    }
    return n;
  };
  const checks: Check[] = [];
  const parameters = {
    qualifiedValueShape: p(node),
    ...(min ? { qualifiedMinCount: min.value } : {}),
    ...(max ? { qualifiedMaxCount: max.value } : {}),
  };
  if (min) {
    const bound = integer(c, min, 'qualifiedMinCount');
    const fail = reporter(c, 'QualifiedMinCount', parameters);
    checks.push(set((x, focus, values) => count(x, values) >= bound || fail(x, focus, undefined)));
  }
  if (max) {
    const bound = integer(c, max, 'qualifiedMaxCount');
    const fail = reporter(c, 'QualifiedMaxCount', parameters);
    checks.push(set((x, focus, values) => count(x, values) <= bound || fail(x, focus, undefined)));
  }
  return checks;
}
