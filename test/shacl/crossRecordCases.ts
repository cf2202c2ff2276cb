// Small dumps whose shapes reach across records (issue 19): validated record by record they would give
// other results than SHACL on the whole graph. Each case is a data file (N-Triples, records keyed by their
// DOI IRIs as the toolkit writes them) and a shapes file; `expected` is what SHACL on the whole graph gives
// (Apache Jena 4.5 `shacl validate`, checked in test/integration/crossRecord.test.ts; shacl-engine on the
// whole graph, checked in test/shacl/crossRecord.test.ts).

const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix schema: <http://schema.org/> .
@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix ex: <http://example.org/ns#> .
`;

const A = '<https://doi.org/10.5555/a>';
const B = '<https://doi.org/10.5555/b>';
const C = '<https://doi.org/10.5555/c>';
const TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const ARTICLE = '<http://schema.org/ScholarlyArticle>';
const CITES = '<http://example.org/ns#cites>';
const DOI = '<http://purl.org/ontology/bibo/doi>';

export interface CrossRecordCase {
  name: string;
  /** N-Triples. */
  data: string;
  /** Turtle. */
  shapes: string;
  /** What SHACL on the whole graph gives. */
  expected: { conforms: boolean; results: number };
  /** The mode validate runs in by default, and the start of why. */
  mode: 'record' | 'graph';
}

/** Three records: a cites b, b cites c; each has its type and DOI. */
const citing = [
  `${A} ${TYPE} ${ARTICLE} .`,
  `${A} ${DOI} "10.5555/a" .`,
  `${A} ${CITES} ${B} .`,
  `${B} ${TYPE} ${ARTICLE} .`,
  `${B} ${DOI} "10.5555/b" .`,
  `${B} ${CITES} ${C} .`,
  `${C} ${TYPE} <http://example.org/ns#Retracted> .`,
  `${C} ${DOI} "10.5555/c" .`,
].join('\n');

export const CROSS_RECORD_CASES: readonly CrossRecordCase[] = [
  {
    // Record by record, a's record does not hold b's type: a false violation. Whole graph: b is an article.
    // The shapes look like the shipped ones (sh:class on a value): record mode runs, notices that a names a
    // node of another record, and validates the whole graph instead.
    name: 'sh:class on a node another record owns',
    data: `${citing}\n`,
    shapes: `${PREFIXES}
ex:CitesShape a sh:NodeShape ; sh:targetSubjectsOf ex:cites ;
  sh:property [ sh:path ex:cites ; sh:class schema:ScholarlyArticle ] .
`,
    expected: { conforms: false, results: 1 },
    mode: 'graph',
  },
  {
    // c is cited by b: whole graph, one violation; c's record alone has no ^ex:cites and would miss it.
    name: 'inverse path with sh:maxCount 0',
    data: `${citing}\n`,
    shapes: `${PREFIXES}
ex:RetractedShape a sh:NodeShape ; sh:targetClass ex:Retracted ;
  sh:property [ sh:path [ sh:inversePath ex:cites ] ; sh:maxCount 0 ] .
`,
    expected: { conforms: false, results: 1 },
    mode: 'graph',
  },
  {
    // b and c are the objects of ex:cites; their DOIs are in their own records: whole graph, no violation.
    name: 'sh:targetObjectsOf on a predicate that links records',
    data: `${citing}\n`,
    shapes: `${PREFIXES}
ex:CitedShape a sh:NodeShape ; sh:targetObjectsOf ex:cites ;
  sh:property [ sh:path bibo:doi ; sh:minCount 1 ] .
`,
    expected: { conforms: true, results: 0 },
    mode: 'graph',
  },
  {
    // Shapes that read only each record's own nodes: record by record is exact and stays.
    name: 'shapes within a record (record mode stays)',
    data: `${citing}\n`,
    shapes: `${PREFIXES}
ex:WorkShape a sh:NodeShape ; sh:targetSubjectsOf bibo:doi ;
  sh:property [ sh:path bibo:doi ; sh:maxCount 1 ; sh:pattern "^10\\\\.5555/[ab]$" ] .
`,
    expected: { conforms: false, results: 1 },
    mode: 'record',
  },
  {
    // ex:Work is a class through owl:Class rdfs:subClassOf rdfs:Class: an implicit class target (SHACL 2.1.3.3).
    name: 'implicit class target through a subclass of rdfs:Class',
    data: `${A} ${TYPE} <http://example.org/ns#Work> .\n${A} ${DOI} "10.5555/a" .\n`,
    shapes: `${PREFIXES}
owl:Class rdfs:subClassOf rdfs:Class .
ex:Work a owl:Class , sh:NodeShape ;
  sh:property [ sh:path schema:name ; sh:minCount 1 ] .
`,
    expected: { conforms: false, results: 1 },
    mode: 'record',
  },
  {
    // The data says ex:Sub is a subclass of ex:Work: a's record alone has that triple, but class targets follow
    // the data graph's rdfs:subClassOf wherever it stands; record mode notices it and validates the whole graph.
    name: 'rdfs:subClassOf in the data',
    data: `${A} ${TYPE} <http://example.org/ns#Sub> .\n${A} ${DOI} "10.5555/a" .\n${B} ${TYPE} <http://example.org/ns#Sub> .\n${B} ${DOI} "10.5555/b" .\n<http://example.org/ns#Sub> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/ns#Work> .\n`,
    shapes: `${PREFIXES}
ex:WorkShape a sh:NodeShape ; sh:targetClass ex:Work ;
  sh:property [ sh:path schema:name ; sh:minCount 1 ] .
`,
    expected: { conforms: false, results: 2 },
    mode: 'graph',
  },
];
