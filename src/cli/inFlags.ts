/**
 * The library names its options in backticks (`` `baseUrl` ``, `` `resume` ``);
 * on the command line they are flags. These are the options whose flag is not
 * their name in kebab case.
 */
const FLAG_OF: Readonly<Record<string, string>> = {
  statePath: '--state',
  metaPath: '--meta',
  rejectsPath: '--rejects',
  notesPath: '--notes',
  shapesDir: '--shapes',
  reportPath: '--report',
  credentials: '--user/--password',
  output: '-o',
  format: '-f',
  maxExamples: '--examples',
  checkCount: '--check',
  validation: '--validate',
  timeoutMs: '--timeout',
  retryPolicy: '--retries',
  schemaScheme: '--schema-https',
  shardRecords: '--shard-records',
  shardBytes: '--shard-size',
};

/** Options the library names in its messages (each becomes its flag). */
const OPTIONS = new Set([
  ...Object.keys(FLAG_OF),
  'apiKey', 'baseUrl', 'endpoint', 'pageSize', 'maxStart', 'maxRecords', 'resume', 'splitBy', 'graph', 'graphPerRecord', 'base', 'license',
  'rate', 'concurrency', 'sample', 'validate', 'load', 'replace', 'store', 'queryEndpoint', 'updateEndpoint', 'chunkTriples', 'chunkFormat',
  'jobs', 'window', 'user', 'restart', 'ignoreExportLock', 'regroup', 'strict', 'jsonldContext', 'vocabUrl', 'accept', 'mode', 'failOn', 'maxGraphTriples',
  'since', 'changesSince',
  // The limits of what is read (parseRdf, readRecords).
  'maxDepth', 'maxDocumentChars',
]);

/** A library message in the command line's words: each option named in backticks becomes its flag. */
export function inFlags(message: string): string {
  return message.replace(/`([a-zA-Z]+)`/g, (whole, name: string) => (OPTIONS.has(name) ? (FLAG_OF[name] ?? `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`) : whole));
}
