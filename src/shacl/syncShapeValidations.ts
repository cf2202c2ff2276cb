/**
 * The constraints of shacl-engine 1.x that validate other shapes (`sh:node`,
 * `sh:property`, `sh:qualifiedValueShape`, `sh:and`, `sh:or`, `sh:not`,
 * `sh:xone`), written without `await` for {@link validateSync}: the engine's
 * own are `async` and wait for its asynchronous `Shape.validate`. Each is the
 * engine's code with `await` left out, so results, messages and their order
 * are the engine's. (The engine runs the shapes of `sh:and`, `sh:xone` and the
 * values of `sh:qualifiedValueShape` side by side, interleaved at each
 * `await`; here one after the other, each reading the run's caches complete.)
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { CompileValidation } from './shaclEngine.js';
import type { PtrList, SyncContext, SyncShape } from './SyncContext.js';
import { validateShape } from './validateSync.js';

const SH = 'http://www.w3.org/ns/shacl#';
const sh = (local: string) => DataFactory.namedNode(`${SH}${local}`);
const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';
const NODE = sh('NodeConstraintComponent');
const AND = sh('AndConstraintComponent');
const NOT = sh('NotConstraintComponent');
const OR = sh('OrConstraintComponent');
const XONE = sh('XoneConstraintComponent');

type Validation = (context: SyncContext) => void;
type Compile = (shape: SyncShape) => { generic?: Validation; property?: Validation };

/** The shapes a shape's `predicate` names, as the engine makes them. */
function shapesOf(shape: SyncShape, predicate: RDF.NamedNode): SyncShape[] {
  return [...(shape.ptr as unknown as { out(p: RDF.Term[]): PtrList }).out([predicate])].map((ptr) => shape.validator.shape(ptr)!);
}

/** The shapes of the RDF lists a shape's `predicate` names (`sh:and ( ... )`). */
function listShapesOf(shape: SyncShape, predicate: RDF.NamedNode): SyncShape[] {
  const lists = [...(shape.ptr as unknown as { out(p: RDF.Term[]): PtrList }).out([predicate])] as unknown as { list(): Iterable<PtrList> }[];
  return lists.flatMap((ptr) => [...ptr.list()]).map((ptr) => shape.validator.shape(ptr)!);
}

/** The report of `shape` on the value (or focus node) of `context`, in a child context. */
function reportOn(shape: SyncShape, context: SyncContext, focusNode: PtrList = context.valueOrNode!): SyncContext['report'] {
  return validateShape(shape, context.create({ child: true, focusNode })).report;
}

const compileNode: Compile = (shape) => {
  const node = shapesOf(shape, sh('node'));
  return {
    generic: (context) => {
      for (const s of node) {
        const report = reportOn(s, context);
        // A test that passes reports only in debug runs: its arguments are not built otherwise.
        if (report.conforms && !context.options.debug) continue;
        context.test(report.conforms, NODE, {
          args: { node: s.ptr.term },
          message: [context.factory.literal('Value does not have shape {$node}')],
          results: report.results,
          value: context.valueOrNode,
        });
      }
    },
  };
};

const compileProperty: Compile = (shape) => {
  const property = shapesOf(shape, sh('property'));
  return {
    generic: (context) => {
      const propertyContext = context.create({ focusNode: context.valueOrNode });
      for (const s of property) validateShape(s, propertyContext);
    },
  };
};

/** An `xsd:boolean` or other literal read as rdf-literal's `fromRdf` reads it (the engine's `sh:qualifiedValueShapesDisjoint`). */
function fromRdfBoolean(term: RDF.Term | undefined): unknown {
  if (!term) return false;
  if (term.termType !== 'Literal' || term.datatype.value !== XSD_BOOLEAN) return term.value;
  return term.value === 'true' || term.value === '1';
}

/** `sh:qualifiedMaxCount` and `sh:qualifiedMinCount` of a shape, as the engine reads them (null: none). */
export function qualifiedCounts(ptr: { out(p: RDF.Term[]): { term: RDF.Term | undefined } }): { maxCount: number | null; minCount: number | null } {
  const maxCountTerm = ptr.out([sh('qualifiedMaxCount')]).term;
  const minCountTerm = ptr.out([sh('qualifiedMinCount')]).term;
  return { maxCount: maxCountTerm ? parseInt(maxCountTerm.value) : null, minCount: minCountTerm ? parseInt(minCountTerm.value) : null };
}

const compileQualifiedShape: Compile = (shape) => {
  const ptr = shape.ptr as unknown as { out(p: RDF.Term[]): PtrList & { term: RDF.Term | undefined } };
  const valueShape = shape.validator.shape(ptr.out([sh('qualifiedValueShape')]))!;
  const valueShapesDisjoint = fromRdfBoolean(ptr.out([sh('qualifiedValueShapesDisjoint')]).term);
  const { maxCount, minCount } = qualifiedCounts(ptr);
  return {
    property: (context) => {
      const resultsDeep: unknown[][] = [];
      // As the engine has it: a Set (no `length`) when disjoint, else an empty array.
      let siblingShapes: Set<SyncShape> | SyncShape[] = [];
      if (valueShapesDisjoint) {
        const siblings = (context.shape!.ptr as unknown as { in(p: RDF.Term[]): { out(p: RDF.Term[]): { out(p: RDF.Term[]): PtrList & { filter(f: (p: PtrList) => boolean): { map<T>(f: (p: PtrList) => T): T[] } } } } })
          .in([sh('property')])
          .out([sh('property')])
          .out([sh('qualifiedValueShape')])
          .filter((p) => !p.term!.equals(valueShape.ptr.term))
          .map((p) => context.shape!.validator.shape(p)!);
        siblingShapes = new Set(siblings);
      }
      let count = 0;
      for (const value of context.values!) {
        const report = reportOn(valueShape, context, value);
        resultsDeep.push(report.results);
        if (!report.conforms) continue;
        if ((siblingShapes as { length?: number }).length === 0) {
          count++;
          continue;
        }
        const siblings = [...siblingShapes];
        if (context.options.debug || context.options.details) {
          // Every sibling when details are asked for.
          const reports = siblings.map((s) => reportOn(s, context, value));
          resultsDeep.push(reports.flatMap((r) => r.results));
          if (!reports.every((r) => r.conforms)) count++;
        } else if (!siblings.every((s) => reportOn(s, context, value).conforms)) {
          count++;
        }
      }
      const args = { qualifiedValueShape: valueShape.ptr.term, qualifiedValueShapesDisjoint: valueShapesDisjoint };
      if (maxCount !== null) {
        context.test(count <= maxCount, sh('QualifiedMaxCountConstraintComponent'), {
          args: { qualifiedMaxCount: maxCount, ...args },
          message: [context.factory.literal('More than {$qualifiedMaxCount} values have shape {$qualifiedValueShape}')],
          results: resultsDeep.flat(),
        });
      }
      if (minCount !== null) {
        context.test(count >= minCount, sh('QualifiedMinCountConstraintComponent'), {
          args: { qualifiedMinCount: minCount, ...args },
          message: [context.factory.literal('Less than {$qualifiedMinCount} values have shape {$qualifiedValueShape}')],
          results: resultsDeep.flat(),
        });
      }
    },
  };
};

const compileAnd: Compile = (shape) => {
  const and = listShapesOf(shape, sh('and'));
  return {
    generic: (context) => {
      const reports = and.map((s) => reportOn(s, context));
      const conforms = reports.every((r) => r.conforms);
      if (conforms && !context.options.debug) return;
      context.test(
        conforms,
        AND,
        { results: reports.flatMap((r) => r.results), value: context.valueOrNode },
      );
    },
  };
};

const compileNot: Compile = (shape) => {
  const not = shape.validator.shape((shape.ptr as unknown as { out(p: RDF.Term[]): PtrList }).out([sh('not')]))!;
  return {
    generic: (context) => {
      const report = reportOn(not, context);
      if (!report.conforms && !context.options.debug) return;
      context.test(!report.conforms, NOT, {
        args: { not: not.ptr.term },
        message: [context.factory.literal('Value does have shape {$not}')],
        results: report.results,
        value: context.valueOrNode,
      });
    },
  };
};

const compileOr: Compile = (shape) => {
  const or = listShapesOf(shape, sh('or'));
  return {
    generic: (context) => {
      let results: unknown[] = [];
      let result: boolean;
      if (context.options.debug || context.options.details) {
        const reports = or.map((s) => reportOn(s, context));
        results = reports.flatMap((r) => r.results);
        result = reports.some((r) => r.conforms);
      } else {
        // The first shape that conforms ends it.
        result = or.some((s) => reportOn(s, context).conforms);
      }
      if (result && !context.options.debug) return;
      context.test(result, OR, { results, value: context.valueOrNode });
    },
  };
};

const compileXone: Compile = (shape) => {
  const xone = listShapesOf(shape, sh('xone'));
  return {
    generic: (context) => {
      const reports = xone.map((s) => reportOn(s, context));
      const one = reports.filter((r) => r.conforms).length === 1;
      if (one && !context.options.debug) return;
      context.test(one, XONE, {
        results: reports.flatMap((r) => r.results),
        value: context.valueOrNode,
      });
    },
  };
};

/** The shape-validating constraints for shacl-engine's registry (its `validations` option), synchronous. */
export function syncShapeValidations(): [RDF.Term, CompileValidation][] {
  const entries: [string, Compile][] = [
    ['node', compileNode],
    ['property', compileProperty],
    ['qualifiedValueShape', compileQualifiedShape],
    ['and', compileAnd],
    ['not', compileNot],
    ['or', compileOr],
    ['xone', compileXone],
  ];
  return entries.map(([local, compile]) => [sh(local), compile as unknown as CompileValidation]);
}
