// Public library surface of scholarly-rdf: named re-exports only.

// Errors and formats
export * from './errors.js';
export { FORMATS, formatInfo, parseFormatName, formatFromPath, formatFromMediaType, isGzipPath, type FormatInfo } from './formats.js';

// Records: reading and normalising what the service sends
export * from './record/types.js';
export { readRecords, unwrap, escapeControlCharsInStrings, type ReadItem, type ReadRecordsOptions } from './record/readRecords.js';
export { normalizeRecord, type NormalizeOptions } from './record/normalizeRecord.js';

// Mapping (pure: record in, RDF/JS quads out)
export { mapRecord, type MapOptions, type MappedRecord } from './mapping/mapRecord.js';
export { classifyPages, type PageClass } from './mapping/classifyPages.js';
export { dateLiteralKind } from './mapping/dates.js';
export { NS, DEFAULT_BASE, DOI_RESOLVER, ORCID_RESOLVER } from './mapping/namespaces.js';
export { encodeIriPath, encodeIriSegment, toIri, cleanText } from './mapping/iri.js';
export { recordGraphIri, recordGraphPattern, inRecordGraph } from './mapping/recordGraph.js';
export { isLanguageTag, LANGUAGE_TAG } from './mapping/languageTag.js';

// Conversion of saved responses
export { convertItem, type ConvertItemOptions, type ConvertOutcome, type Rejection } from './convert/convertItem.js';
export { ConvertStats } from './convert/ConvertStats.js';
export { openOutput, type Output } from './convert/openOutput.js';
export { GuardedWriter } from './convert/GuardedWriter.js';
export { jsonText } from './record/jsonText.js';

// Serialisers
export * from './serialize/QuadSerializer.js';
export { SERIALIZERS, serializerFor } from './serialize/serializers.js';
export { writeRecords, type WriteRecordsOptions, type WriteRecordsResult } from './serialize/writeRecords.js';
export { DEFAULT_PREFIXES } from './serialize/prefixes.js';
export { QuadStreamSerializer, iterateQuads, type QuadStreamSerializerOptions } from './serialize/QuadStreamSerializer.js';
export { TurtleSerializer } from './serialize/TurtleSerializer.js';
export { NTriplesSerializer } from './serialize/NTriplesSerializer.js';
export { NQuadsSerializer } from './serialize/NQuadsSerializer.js';
export { JsonLdSerializer } from './serialize/JsonLdSerializer.js';
export { RdfXmlSerializer } from './serialize/RdfXmlSerializer.js';
export { CONTEXT_URL, shippedContext } from './serialize/jsonldContext.js';

// Parsing RDF
export { parseRdf, resolveFormat, type ParseRdfOptions, type RdfInput } from './parse/parseRdf.js';
export { sniffFormat, type SniffedFormat } from './parse/sniffFormat.js';
export { openRdfFile, type RdfFile } from './parse/openRdfFile.js';
export { extractHtmlRdf, type HtmlRdf } from './parse/extractHtmlRdf.js';

// The vocabulary term
export { negotiate, parseAccept, type MediaRange } from './vocabulary/negotiate.js';
export { createDocumentLoader, toJsonldJsLoader, SHIPPED_CONTEXTS, VOCAB_DIR_URL, type DocumentLoader, type DocumentLoaderOptions, type JsonDocument } from './vocabulary/documentLoader.js';
export { fetchTerm, DEFAULT_VOCAB_URL, type FetchTermOptions, type FetchedTerm, type TermSource } from './vocabulary/fetchTerm.js';
export { loadShippedTerm, shippedTermPath, SHIPPED_TERMS } from './vocabulary/loadShippedTerm.js';
export { toAcceptHeader, formatAccept, preferredFormat, DEFAULT_ACCEPT_WEIGHTS, TERM_MEDIA_TYPES } from './vocabulary/acceptHeader.js';
export { compareGraphs, quadToLine, type GraphComparison } from './vocabulary/compareGraphs.js';
export { parseLinkHeader, type HeaderLink } from './vocabulary/parseLinkHeader.js';

// Harvest and export
export { ApiClient, ENDPOINT_PATHS, DEFAULT_BASE_URL, MAX_PAGE_SIZE, type ApiClientOptions, type Endpoint, type SearchPage, type PageRequest, type RetryEvent } from './client/ApiClient.js';
export { RetryPolicy, parseRetryAfter, serviceMessageOf, type RetryPolicyOptions, type RequestOutcome, type RetryDecision } from './client/RetryPolicy.js';
export { searchPages, nextStartOf, isLastPage, reachableRecords, DEFAULT_PAGE_SIZE, DEFAULT_MAX_START, type SearchPagesOptions } from './client/searchPages.js';
export { harvest, harvestPages, type HarvestOptions, type HarvestPage, type HarvestCursor } from './client/harvest.js';
export { DoiSet } from './client/DoiSet.js';
export { extractDateBounds, splitWindow, windowQuery, fitsUnit, initialWindow, type DateWindow, type SplitUnit } from './client/dateWindows.js';
export { exportRdf, type ExportOptions, type ExportSummary, type ExportProgress } from './export/exportRdf.js';
export { provenanceQuads, datasetIri, type ProvenanceInput } from './export/provenance.js';
export { CheckpointFile, type CheckpointFileOptions } from './export/CheckpointFile.js';
export { readExportState, writeExportState, type ExportState, type ExportCounts, type ExportIdentity } from './export/ExportState.js';
export { ExportReporter, type ExportReporterOptions } from './export/ExportReporter.js';

// Loading into triple stores
export { GraphStoreLoader } from './store/GraphStoreLoader.js';
export type { GraphStoreLoaderOptions, LoadSummary } from './store/GraphStoreLoader.js';
export { StoreHttpClient } from './store/StoreHttpClient.js';
export type { StoreCredentials, StoreHttpClientOptions, StoreRequest, StoreResponse } from './store/StoreHttpClient.js';
export { storeEndpoints, parseStoreKind, STORE_KINDS } from './store/storeEndpoints.js';
export type { StoreKind, StoreEndpoints, StoreEndpointsOptions } from './store/storeEndpoints.js';
export { LoadLog } from './store/LoadLog.js';
export type { LoadInput, LoadIdentity, LoadLogState } from './store/LoadLog.js';
export { digestAuthorization, basicAuthorization, parseAuthChallenges, isSupportedDigest } from './store/digestAuth.js';
export { countGraph, countQuery, dropGraph, parseCountResult } from './store/countGraph.js';
export { graphOfFileName, graphOfDataset, findDatasetIri, GRAPH_BASE } from './store/defaultGraph.js';
export { decideStoreRetry } from './store/storeRetry.js';

// Validation (SHACL)
export { loadShapes, parseShapesText, DEFAULT_SHAPES_DIR } from './shacl/loadShapes.js';
export type { ShapesGraph } from './shacl/loadShapes.js';
export { RecordValidator, compactIri, pathToString } from './shacl/RecordValidator.js';
export type { RecordValidatorOptions, ValidationOutcome, ValidationResult, Severity, PathStep } from './shacl/RecordValidator.js';
export { ParallelRecordValidator } from './shacl/ParallelRecordValidator.js';
export type { RecordValidating, ParallelRecordValidatorOptions } from './shacl/ParallelRecordValidator.js';
export { validateStream, validateNTriples } from './shacl/validateStream.js';
export type { RecordValidation, RecordTextValidation, ValidateStreamOptions, ValidateNTriplesOptions } from './shacl/validateStream.js';
export { groupRecords, recordKeyOf } from './shacl/groupRecords.js';
export type { RecordGroup, GroupRecordsOptions } from './shacl/groupRecords.js';
export { groupNTriplesRecords } from './shacl/groupNTriplesRecords.js';
export type { NTriplesRecordGroup, GroupNTriplesRecordsOptions } from './shacl/groupNTriplesRecords.js';
export { parseRecordText } from './shacl/RecordText.js';
export type { RecordText } from './shacl/RecordText.js';
export { ValidationSummary } from './shacl/ValidationSummary.js';
export type { ShapeCount, ValidationExample, ValidationSummaryOptions } from './shacl/ValidationSummary.js';
export { ValidationReportWriter } from './shacl/ValidationReportWriter.js';
export { createRecordValidator, describeResult, describeViolations, resultToJson, violationsToJson } from './shacl/createRecordValidator.js';
export { describeResultJson } from './shacl/ValidationResultJson.js';
export type { ValidationResultJson } from './shacl/createRecordValidator.js';
export { isValidOrcid, orcidCheckCharacter, isCalendarDate } from './shacl/nativeConstraints.js';

// The local service and the sample generator
export { createServer, startServer, closeServer, sampleCatalogueOptions, SAMPLE_API_KEY, PLAN_PAGE_LIMITS, Catalogue, loadCatalogue, loadCatalogueInParallel, parseQuery, QuerySyntaxError, QUERY_FIELDS, FACET_NAMES } from './server/index.js';
export type { ServeOptions, StartServerOptions, RunningServer, FaultOptions, ApiKeySpec, KeyPlan, CatalogueSource, LoadCatalogueOptions, QueryNode, TermNode, QueryField, ParseQueryOptions, FacetName, FacetValue } from './server/index.js';
export { generateRecords, type GenerateRecordsOptions, type GeneratedRecord } from './sample/generateRecords.js';
export { sampleCataloguePath } from './sample/sampleCatalogue.js';

// CLI entry (for embedding)
export { run, main, VERSION } from './cli/main.js';
export type { CliIo, CliContext } from './cli/CliContext.js';
