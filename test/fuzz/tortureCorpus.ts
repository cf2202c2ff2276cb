/**
 * The torture corpus: the small files checked into test/fixtures/torture/,
 * and the big ones generated at test time (a 10 MB abstract, 10,000
 * creators, 100,000 levels of nesting) rather than committed. Each case says
 * what a user gets from `convert`: how many records are written and
 * rejected, the exit code, and for a rejection the field named.
 * Used by test/fuzz/torture.test.ts and test/integration/torture.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the checked-in torture files are. */
export const TORTURE_DIR = resolve(import.meta.dirname, '../fixtures/torture');

/** One torture input and what `convert` must make of it. */
export interface TortureCase {
  /** File name (checked in, or written at test time). */
  name: string;
  /** What it tortures. */
  what: string;
  /** The bytes, for generated files. Checked-in files are read from {@link TORTURE_DIR}. */
  generate?: () => Buffer;
  /** Records written to the output. */
  mapped: number;
  /** Records (or inputs) rejected; the exit code is 1 when this is not 0. */
  rejected: number;
  /** Each rejection's stderr line must match (it names the file, the record and the field). */
  rejection?: RegExp;
  /** Whether the big-input budget applies (fewer parsers in the unit suite). */
  big?: boolean;
  /** Options `convert` needs for it. Defaults to none. */
  options?: string[];
}

/** A limit above the 10 MB abstract's document (the default, 8 MiB, rejects it: docs/errors.md). */
export const BIG_DOCUMENT_OPTIONS = ['--max-document-chars', String(2 ** 24)];

/** 10 MiB of abstract: several scripts, quotes, XML breakers, line breaks. */
export const BIG_ABSTRACT_CHARS = 10 * 1024 * 1024;
/** Creators of the many-creators case. */
export const MANY_CREATORS = 10_000;
/** Lines of the NDJSON record broken by raw newlines. */
export const BROKEN_LINES = 5_000;
/** Levels of nesting of the deep cases. */
export const DEPTH = 100_000;

function bigAbstract(): string {
  const unit = 'Résumé ]]> -- "quoted" <tag> & \\ backslash Ελληνικά 中文 😀 line\nbreak\ttab. ';
  return unit
    .repeat(Math.ceil(BIG_ABSTRACT_CHARS / unit.length))
    .slice(0, BIG_ABSTRACT_CHARS)
    .replace(/[\uD800-\uDBFF]$/, 'x');
}

/** The text of the big abstract (for assertions). */
export const bigAbstractText = (() => {
  let cached: string | undefined;
  return () => (cached ??= bigAbstract());
})();

/** The name of creator `i` of the many-creators case. */
export const manyCreatorName = (i: number): string => `Author${i}, Given ${['A', 'Ø', 'Ж', '李'][i % 4]}`;

/** The lines of the abstract of the NDJSON record broken by raw newlines ("2021", "null", "[1]", …). */
export const brokenRecordLines = (): string[] =>
  Array.from({ length: BROKEN_LINES }, (_, i) => (i % 3 === 0 ? '2021' : i % 3 === 1 ? 'null' : '[1]'));

const deepObject = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

/** Every torture case. */
export const TORTURE_CASES: readonly TortureCase[] = [
  {
    name: 'control-characters.json',
    what: 'C0 controls, NUL, ESC, DEL and C1 controls in every kind of text field',
    mapped: 1,
    rejected: 0,
  },
  {
    name: 'surrogates-and-noncharacters.json',
    what: 'unpaired surrogates (also in the DOI), U+FFFE, U+FFFF, other non-characters, private use',
    mapped: 1,
    rejected: 0,
  },
  {
    name: 'bidi-marks.json',
    what: 'bidi marks and overrides in the DOI, title, names, ORCID and URLs',
    mapped: 1,
    rejected: 0,
  },
  {
    name: 'iri-breakers.json',
    what: '\\ " < > { } | ^ ` spaces, %, #, ?, [ ] in DOIs, URLs, ORCIDs and discipline ids; dot segments',
    mapped: 3,
    rejected: 0,
  },
  {
    name: 'xml-breakers.json',
    what: ']]>, --, <!--, <![CDATA[, &, entities in text bound for RDF/XML',
    mapped: 1,
    rejected: 0,
  },
  {
    name: 'crlf-in-strings.json',
    what: 'a saved response with raw CRLFs and a tab inside JSON strings',
    mapped: 2,
    rejected: 0,
  },
  {
    name: 'invalid-utf8.json',
    what: 'invalid UTF-8: lone continuation, overlong, FE FF, encoded surrogate, cut sequence',
    mapped: 1,
    rejected: 0,
  },
  {
    name: 'ndjson-raw-newline.jsonl',
    what: 'newline-delimited JSON with one record broken over lines by raw newlines',
    mapped: 3,
    rejected: 0,
  },
  { name: 'bom.json', what: 'a byte order mark before the JSON', mapped: 1, rejected: 0 },
  {
    name: 'truncated.json',
    what: 'a pretty-printed envelope cut off in the middle of its second record (the first is recovered)',
    mapped: 1,
    rejected: 1,
    rejection:
      /^rejected: \S*truncated\.json record 2 \(line 17\), field \(input\): the response is cut off after its record 1 \(line 17\): not valid JSON: the input ends inside a string \(line 23, column 13\); the file looks truncated \(.*\); the record before the cut is read, those after it are missing \(fetch the page again\)$/,
  },
  {
    name: 'empty.json',
    what: 'an empty file',
    mapped: 0,
    rejected: 1,
    rejection: /^rejected: \S*empty\.json, field \(input\): the input is empty: no JSON found$/,
  },
  {
    name: 'binary.bin',
    what: 'a binary file (PNG header and random bytes)',
    mapped: 0,
    rejected: 1,
    rejection:
      /^rejected: \S*binary\.bin, field \(input\): not JSON text: the input looks binary \(NUL bytes, invalid UTF-8 or control characters near its start\); expected the JSON of the service, optionally gzip-compressed$/,
  },
  {
    name: 'big-abstract.json',
    what: 'a 10 MB abstract',
    mapped: 1,
    rejected: 0,
    big: true,
    options: BIG_DOCUMENT_OPTIONS,
    generate: () =>
      Buffer.from(JSON.stringify({ doi: '10.5555/big', title: 'Big', language: 'en', abstract: bigAbstractText() })),
  },
  {
    name: 'many-creators.json',
    what: '10,000 creators (with ORCIDs, commas, non-Latin names)',
    mapped: 1,
    rejected: 0,
    big: true,
    generate: () =>
      Buffer.from(
        JSON.stringify({
          records: [
            {
              doi: '10.5555/many',
              title: 'Many authors',
              creators: Array.from({ length: MANY_CREATORS }, (_, i) => ({
                creator: manyCreatorName(i),
                ...(i % 3 === 0 ? { ORCID: '0000-0002-1825-0097' } : {}),
              })),
            },
          ],
        }),
      ),
  },
  {
    name: 'ndjson-long-broken-record.jsonl',
    what: 'an NDJSON record broken over 5,000 lines by raw newlines, some lines JSON on their own ("2021", "null", "[1]")',
    mapped: 2,
    rejected: 0,
    generate: () =>
      Buffer.from(`{"doi":"10.5555/long","abstract":"${brokenRecordLines().join('\n')}"}\n{"doi":"10.5555/after"}\n`),
  },
  {
    name: 'deep-arrays.json',
    what: '100,000 nested arrays',
    mapped: 0,
    rejected: 1,
    rejection:
      /^rejected: \S*deep-arrays\.json record 1 \(line 1\), field \(input\): arrays nested too deep to be records$/,
    generate: () => Buffer.from(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`),
  },
  {
    name: 'deep-arrays-unclosed.json',
    what: '100,000 opening brackets and nothing else',
    mapped: 0,
    rejected: 1,
    rejection:
      /^rejected: \S*deep-arrays-unclosed\.json, field \(input\): not valid JSON: the input ends before its objects and arrays are closed \(line 1, column 100001\); the file looks truncated \(.*\)$/,
    generate: () => Buffer.from('['.repeat(DEPTH)),
  },
  {
    name: 'deep-object-in-title.json',
    what: 'a title that is an object nested 100,000 levels deep (deeper than `maxDepth`: cut off unread; the other record of the array is written)',
    mapped: 1,
    rejected: 1,
    rejection:
      /^rejected: \S*deep-object-in-title\.json record 2 \(line 1\), field \(input\): nested deeper than 64 levels \(in title(\.a)+…\): a record this deep is not read \((?:--max-depth|`maxDepth`) raises the limit\)$/,
    generate: () => Buffer.from(`[{"doi":"10.5555/fine"},{"doi":"10.5555/deep","title":${deepObject(DEPTH, '"x"')}}]`),
  },
  {
    name: 'deep-unknown-field.json',
    what: 'an unknown field nested 100,000 levels deep (deeper than `maxDepth`: the record is rejected, the next line is read)',
    mapped: 1,
    rejected: 1,
    rejection:
      /^rejected: \S*deep-unknown-field\.json record 1 \(line 1\), field \(input\): nested deeper than 64 levels \(in extra(\.a)+…\): a record this deep is not read \((?:--max-depth|`maxDepth`) raises the limit\)$/,
    generate: () =>
      Buffer.from(
        `{"doi":"10.5555/deep2","title":"t","extra":${deepObject(DEPTH, '1')}}\n{"doi":"10.5555/after","title":"t"}\n`,
      ),
  },
  {
    name: 'deep-unknown-field-64.json',
    what: 'an unknown field nested to the limit (64 levels in all): read, the field counted',
    mapped: 1,
    rejected: 0,
    generate: () => Buffer.from(`{"doi":"10.5555/deep3","title":"t","extra":${deepObject(63, '1')}}`),
  },
  {
    name: 'deep-conference.json',
    what: 'a conferenceInfo element nested 40 levels deep (written as JSON text, so refused)',
    mapped: 0,
    rejected: 1,
    rejection:
      /^rejected: \S*deep-conference\.json record 1 \(line 1\) 10\.5555\/conf, field conferenceInfo\[0\](\.a)+: nested deeper than 32 levels$/,
    generate: () => Buffer.from(`{"doi":"10.5555/conf","conferenceInfo":[${deepObject(40, '"x"')}]}`),
  },
];

/** Writes the generated cases into `dir` and returns the path of every case's file. */
export function materialise(dir: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const c of TORTURE_CASES) {
    if (c.generate) {
      const path = join(dir, c.name);
      writeFileSync(path, c.generate());
      paths.set(c.name, path);
    } else {
      paths.set(c.name, join(TORTURE_DIR, c.name));
    }
  }
  return paths;
}

/** The bytes of a checked-in case. */
export function readCase(name: string): Buffer {
  return readFileSync(join(TORTURE_DIR, name));
}
