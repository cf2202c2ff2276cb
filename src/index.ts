// The public library of scholarly-rdf: a small, deliberate surface (pinned by test/exports.test.ts).
// Everything else under src/ is internal and may change without notice.

// The jobs: one call each (the CLI's commands are these calls).
export { exportDump, type ExportDumpOptions, type ExportDumpSummary } from './tasks/exportDump.js';
export type { ExportOptions, ExportSummary, ExportProgress } from './export/exportOptions.js';
export type { ExportCounts } from './export/ExportState.js';
export { convertFiles, type ConvertFilesOptions, type ConvertProgress } from './tasks/convertFiles.js';
export type { ConvertSummary } from './pipeline/ConvertStats.js';
export type { ShardManifest, ShardEntry, ShardLimits } from './output/ShardManifest.js';
export {
  validateDump,
  type ValidateDumpOptions,
  type ValidateDumpSummary,
  type ValidateProgress,
} from './tasks/validateDump.js';
export { loadDump, type LoadDumpOptions, type LoadDumpSummary, type LoadProgress } from './tasks/loadDump.js';
export type { LoadSummary } from './store/GraphStoreLoader.js';
export { upsertDump, type UpsertDumpOptions, type UpsertSummary, type UpsertBatchEvent } from './tasks/upsertDump.js';
export type { UpsertMethod } from './store/upsertRequests.js';
export {
  bulkLoad,
  type BulkLoadOptions,
  type BulkLoadSummary,
  type BulkLoadProgress,
  type BulkFileResult,
} from './tasks/bulkLoad.js';
export type { StoreKind, StoreCredentials, StoreRequestEvent } from './store/index.js';
export { recordRdf, type RecordRdfOptions, type RecordRdf } from './tasks/recordRdf.js';
export { fetchTerm, type FetchTermOptions, type FetchedTerm, type TermSource } from './vocabulary/fetchTerm.js';
export {
  startServer,
  sampleCatalogueOptions,
  type StartServerOptions,
  type RunningServer,
  type ServeOptions,
} from './server/index.js';

// Records in, quads out: the record pipeline and its parts.
export { readRecords, type ReadItem, type ReadRecordsOptions } from './record/readRecords.js';
export { normalizeRecord, type NormalizeOptions } from './record/normalizeRecord.js';
export type { RawRecord, ScholarlyRecord } from './record/types.js';
export { mapRecord, type MapOptions, type MappedRecord } from './mapping/mapRecord.js';
export { RecordSink, type RecordSinkOptions, type WrittenRecord } from './pipeline/RecordSink.js';
export type { Rejection, RejectionCode } from './pipeline/Rejection.js';
export type { RecordValidation, RecordViolation } from './pipeline/RecordValidation.js';
export { createRecordValidation } from './tasks/createRecordValidation.js';

// Harvesting the service.
export { ApiClient, type Endpoint } from './client/ApiClient.js';
export type { ApiClientOptions } from './client/ApiClientOptions.js';
export { harvest, type HarvestOptions } from './client/harvest.js';

// RDF: the five formats, written per record or as an RDF/JS sink, and read as RDF/JS quads.
export { FORMATS, type FormatName } from './formats.js';
export { serializerFor } from './serialize/serializers.js';
export type { RecordWriter, SerializerOptions } from './serialize/QuadSerializer.js';
export { QuadStreamSerializer, type QuadStreamSerializerOptions } from './serialize/QuadStreamSerializer.js';
export { parseRdf, type ParseRdfOptions, type RdfInput } from './parse/parseRdf.js';

// Errors: one class, stable codes.
export {
  ToolkitError,
  MappingError,
  ParseError,
  HttpError,
  ERROR_CODES,
  exitCodeFor,
  type ErrorCode,
} from './errors.js';
