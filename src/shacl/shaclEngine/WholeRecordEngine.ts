import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { RecordDataset } from './RecordDataset.js';
import { Validator, type SparqlPlugin, type ValidatorOptions } from './shaclEngine.js';
import { pathToString, severityOf, type PathStep, type ValidationResult } from '../reports/ValidationResult.js';
import { NS } from '../../rdf/namespaces.js';

const SH = NS.sh;
const RDF_NS = NS.rdf;

/** n3's data factory with the `dataset()` shacl-engine builds its report graph with. */
const FACTORY: ValidatorOptions['factory'] = {
  ...DataFactory,
  dataset: (quads?: RDF.Quad[]) => new Store(quads),
} as unknown as ValidatorOptions['factory'];

/**
 * shacl-engine through its public API, a whole record at a time: for shapes the engine of our own does not run
 * (SHACL-SPARQL with no native implementation, SPARQL targets), or every SPARQL constraint run as SPARQL
 * (`sparql: 'engine'`). Results are read from shacl-engine's report graph.
 */
export class WholeRecordEngine {
  private constructor(
    private readonly validator: Validator,
    /** The shapes graph: shacl-engine's result paths name its blank nodes without copying all their triples. */
    private readonly shapes: RDF.Quad[],
  ) {}

  /** `shapes`: the shapes graph (with the data's class triples: shacl-engine reads rdfs:subClassOf there); `plugin`: the SPARQL plugin, when the shapes need it. */
  static create(shapes: readonly RDF.Quad[], plugin: SparqlPlugin | undefined): WholeRecordEngine {
    const validator = new Validator(new Store([...shapes]), {
      factory: FACTORY,
      ...(plugin ? { validations: plugin.validations, targetResolvers: plugin.targetResolvers } : {}),
    });
    return new WholeRecordEngine(validator, [...shapes]);
  }

  /** Validates one record's distinct triples. */
  async validate(triples: RDF.Quad[]): Promise<ValidationResult[]> {
    if (triples.length === 0) return [];
    const report = await this.validator.validate({ dataset: new RecordDataset(triples) });
    if (report.conforms) return [];
    return resultsOf(report.dataset, this.shapes);
  }
}

/** The results of a SHACL report graph, in its order (`shapes`: where the blank nodes of result paths are read too). */
export function resultsOf(report: RDF.DatasetCore, shapes: readonly RDF.Quad[]): ValidationResult[] {
  const store = new Store([...report]);
  const shapesStore = new Store([...shapes]);
  const objects = (s: RDF.Term, p: string) => {
    const own = store.getObjects(s, DataFactory.namedNode(p), null);
    return own.length || s.termType !== 'BlankNode' ? own : shapesStore.getObjects(s, DataFactory.namedNode(p), null);
  };
  const one = (s: RDF.Term, p: string) => objects(s, p)[0];
  const list = (head: RDF.Term): RDF.Term[] => {
    const out: RDF.Term[] = [];
    for (
      let cell: RDF.Term | undefined = head;
      cell && cell.value !== `${RDF_NS}nil`;
      cell = one(cell, `${RDF_NS}rest`)
    )
      out.push(one(cell, `${RDF_NS}first`)!);
    return out;
  };
  const step = (t: RDF.Term): PathStep => {
    if (t.termType === 'NamedNode') return { predicates: [t], inverse: false, quantifier: 'one' };
    for (const q of ['zeroOrMore', 'oneOrMore', 'zeroOrOne'] as const) {
      const inner = one(t, `${SH}${q}Path`);
      if (inner) return { ...step(inner), quantifier: q };
    }
    const inverse = one(t, `${SH}inversePath`);
    if (inverse) return { ...step(inverse), inverse: true };
    const alternative = one(t, `${SH}alternativePath`);
    if (alternative)
      return { predicates: list(alternative).flatMap((a) => step(a).predicates), inverse: false, quantifier: 'one' };
    return { predicates: [], inverse: false, quantifier: 'one' };
  };
  const pathOf = (t: RDF.Term | undefined): PathStep[] | undefined => {
    if (!t) return undefined;
    return t.termType === 'BlankNode' && one(t, `${RDF_NS}first`) ? list(t).map(step) : [step(t)];
  };
  const reportNode = store.getSubjects(
    DataFactory.namedNode(`${RDF_NS}type`),
    DataFactory.namedNode(`${SH}ValidationReport`),
    null,
  )[0];
  if (!reportNode) return [];
  return store.getObjects(reportNode, DataFactory.namedNode(`${SH}result`), null).map((r) => {
    const resultPath = pathOf(one(r, `${SH}resultPath`));
    return {
      focusNode: one(r, `${SH}focusNode`)!,
      shape: one(r, `${SH}sourceShape`)!,
      path: resultPath && pathToString(resultPath),
      resultPath,
      severity: severityOf(one(r, `${SH}resultSeverity`)?.value ?? `${SH}Violation`),
      message:
        objects(r, `${SH}resultMessage`)
          .map((m) => m.value)
          .join(' ') || 'does not conform',
      value: one(r, `${SH}value`),
      constraintComponent: one(r, `${SH}sourceConstraintComponent`) as RDF.NamedNode,
      sourceConstraint: one(r, `${SH}sourceConstraint`),
    };
  });
}
