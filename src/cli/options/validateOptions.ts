import type { CliOption } from './CliOption.js';
import { QUIET_ALIAS } from './commonOptions.js';
import { parseInteger } from './optionValues.js';

/** `--jobs` of `validate`: a count, or `auto`. */
function jobsOrAuto(value: string): number | 'auto' {
  return value === 'auto' ? 'auto' : parseInteger('--jobs', value, 1);
}

/** The flags of `validate` (then the read limits). */
export const VALIDATE_OPTIONS: readonly CliOption[] = [
  {
    flags: '--shapes <dir>',
    type: 'string',
    name: 'shapesDir',
    help: 'directory (or file) of SHACL shapes in Turtle (default: the shipped shapes/)',
  },
  {
    flags: '--report <file>',
    type: 'string',
    name: 'reportPath',
    help: 'write the full SHACL validation report (sh:ValidationReport) in Turtle to this file',
  },
  {
    flags: '--input-format <format>',
    type: 'string',
    name: 'format',
    help: 'format of the inputs (default: from the file extension, else sniffed)',
  },
  {
    flags: '-f, --format <format>',
    type: 'string',
    deprecatedFor: '--input-format',
    help: 'the same as --input-format (earlier; -f is the output format in convert, export, get and term)',
  },
  {
    flags: '--examples <n>',
    type: 'integer',
    min: 0,
    default: 5,
    name: 'maxExamples',
    help: 'how many example violations the summary shows',
  },
  {
    flags: '--window <n>',
    type: 'integer',
    min: 1,
    default: 4,
    help: 'records that may be open at once (a record is complete when this many newer ones started)',
  },
  {
    flags: '-j, --jobs <n>',
    type: 'string',
    parse: jobsOrAuto,
    help: "validate in N worker threads (auto: one per CPU core, at most 8); 1 validates in the main thread (default: auto for inputs of 16 MiB of text or more, a .gz file's estimated, else 1)",
  },
  {
    flags: '--ignore-export-lock',
    type: 'boolean',
    help: 'validate a dump even while an export is still writing it (its lock is held): the result describes part of it',
  },
  {
    flags: '--allow-partial',
    type: 'boolean',
    help: 'validate the dump of an export that has not finished (its state says so, or a .partial file) as it is; refused without it',
  },
  {
    flags: '--regroup',
    type: 'boolean',
    help: "for dumps whose records are not together (sorted by subject, exported from a store): bring each record's quads together first, through temporary files (two passes; memory about 1/64 of the input or less)",
  },
  {
    flags: '--mode <mode>',
    type: 'string',
    default: 'auto',
    help: 'auto: record by record when the shapes read nothing beyond a record and each record holds what they read, else the whole input as one graph in memory (at most --max-graph-triples); record: each record alone (flat memory; results may differ from SHACL on the whole graph); graph: the whole graph',
  },
  {
    flags: '--max-graph-triples <n>',
    type: 'integer',
    min: 1,
    default: 500_000,
    help: 'the most triples validating as one graph may hold in memory (about 2.4 KB each)',
  },
  {
    flags: '--fail-on <severity>',
    type: 'string',
    default: 'violation',
    help: "exit 1 on results of this severity or worse: violation, warning or info (results of a severity of the shapes' own always fail)",
  },
  { flags: '--quiet', type: 'boolean', name: false, help: 'no progress; print only the first summary line' },
  QUIET_ALIAS,
  {
    flags: '--json',
    type: 'boolean',
    name: false,
    help: 'print the summary as one line of JSON on stdout instead of its text (counts by shape, examples, the report, timings)',
  },
];
