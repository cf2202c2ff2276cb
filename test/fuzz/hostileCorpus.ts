/**
 * The hostile-input corpus: inputs made to exhaust a reader (nesting
 * 100,000 levels deep in JSON, JSON-LD and RDF/XML, a 300 MB line, 250 MB of
 * newline-delimited JSON), or to confuse it (binary, truncated gzip, invalid
 * UTF-8, control bytes, a 20 MB token). Each is generated at test time (none
 * is committed) and says what the built CLI must make of it: the exit code
 * and a line of its stderr, for each command that reads it. The bounds on
 * time and memory are outcomes too: test/fuzz/hostile.test.ts runs each
 * command with a capped heap (a reader that held the input would die with
 * exit 134) and a deadline (one that took minutes would be killed).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** One command run on a hostile file, and what it must end with. */
export interface HostileRun {
  /** The arguments, given the file's path (relative to the run's directory). */
  args: (file: string) => string[];
  /** Read the file from stdin instead (the path is then `-`). Defaults to false. */
  stdin?: boolean;
  /** The exit code (never 70 or more: no crash). */
  exit: number;
  /** Lines stderr must contain (each a pattern over the whole of stderr). */
  stderr: RegExp[];
}

/** A hostile input. */
export interface HostileCase {
  name: string;
  what: string;
  /** The bytes, in pieces (a 300 MB file is never one string). */
  generate: () => Iterable<string | Buffer>;
  runs: HostileRun[];
  /** The heap the CLI is given, in MiB: the memory bound. Defaults to {@link DEFAULT_HEAP_MIB}. */
  heapMiB?: number;
  /** Small and quick (a second or two a command): run by `npm test` as well as `npm run test:fuzz`. Default false. */
  light?: boolean;
}

/** The heap of a run unless a case says otherwise: far below what the inputs would take if held. */
export const DEFAULT_HEAP_MIB = 160;
/** Levels of nesting of the deep cases. */
export const HOSTILE_DEPTH = 100_000;
/** Where `load` is sent: a port nothing listens on (the input must fail before anything is sent). */
export const NO_STORE = 'http://127.0.0.1:9/ds';

const CONTEXT = '{"@context": {"p": "http://ex.org/p"}, "@id": "http://ex.org/a", "p": ';
const RDF_HEAD =
  '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">\n';

function* repeat(text: string, times: number, batch = 10_000): Generator<string> {
  for (let done = 0; done < times; done += batch) yield text.repeat(Math.min(batch, times - done));
}

/** Deterministic noise: SHA-256 in counter mode. */
function noise(bytes: number): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; out.length * 32 < bytes; i++) out.push(createHash('sha256').update(`hostile ${i}`).digest());
  return Buffer.concat(out).subarray(0, bytes);
}

const tooDeep = (file: string, what: 'JSON-LD' | 'RDF/XML', line = 1) =>
  new RegExp(
    `error \\[parse\\]: ${file.replace(/\./g, '\\.')}:${line}:\\d+: ${what.replace('/', '\\/')} nested deeper than 64 levels: not read \\(--max-depth raises the limit\\)`,
  );
const deepRecord =
  /field \(input\): nested deeper than 64 levels \(in .*\): a record this deep is not read \((?:--max-depth|`maxDepth`) raises the limit\)/;
const rdfCommands = (file: string, what: 'JSON-LD' | 'RDF/XML', line = 1): HostileRun[] => [
  { args: (f) => ['validate', f], exit: 4, stderr: [tooDeep(file, what, line)] },
  { args: (f) => ['load', f, '--endpoint', NO_STORE], exit: 4, stderr: [tooDeep(file, what, line)] },
  { args: (f) => ['convert', f, '-f', 'ntriples'], exit: 4, stderr: [tooDeep(file, what, line)] },
];

/** Every hostile case. */
export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    name: 'deep-objects.jsonld',
    what: 'JSON-LD objects nested 100,000 levels (600 kB; took 306 s and 2.5 GB at 20,000 levels, ran out of heap at 100,000)',
    generate: () => [CONTEXT, ...repeat('{"p": ', HOSTILE_DEPTH), '"x"', ...repeat('}', HOSTILE_DEPTH), '}\n'],
    runs: [
      ...rdfCommands('deep-objects.jsonld', 'JSON-LD'),
      { args: () => ['validate', '-'], stdin: true, exit: 4, stderr: [tooDeep('<stdin>', 'JSON-LD')] },
    ],
  },
  {
    name: 'deep-lists.jsonld',
    what: 'JSON-LD @list nested 100,000 levels',
    generate: () => [CONTEXT, ...repeat('{"@list": [', HOSTILE_DEPTH), '"x"', ...repeat(']}', HOSTILE_DEPTH), '}\n'],
    runs: rdfCommands('deep-lists.jsonld', 'JSON-LD'),
  },
  {
    name: 'deep-graph-node.jsonld',
    what: "a dump's @graph whose third node is nested 100,000 levels (the layout read in pieces)",
    generate: () => [
      '{"@context": {"p": "http://ex.org/p"},\n"@graph": [\n{"@id": "http://ex.org/a", "p": "x"},\n{"@id": "http://ex.org/b", "p": ',
      ...repeat('[', HOSTILE_DEPTH),
      '"x"',
      ...repeat(']', HOSTILE_DEPTH),
      '}\n]}\n',
    ],
    runs: rdfCommands('deep-graph-node.jsonld', 'JSON-LD', 4),
  },
  {
    name: 'deep.rdf',
    what: 'RDF/XML elements nested 100,000 levels (2.4 MB; took 130 s and more)',
    generate: () => [
      RDF_HEAD,
      '<rdf:Description rdf:about="http://ex.org/a">',
      ...repeat('<ex:p><rdf:Description>', HOSTILE_DEPTH / 2),
      '<ex:p>x</ex:p>',
      ...repeat('</rdf:Description></ex:p>', HOSTILE_DEPTH / 2),
      '</rdf:Description></rdf:RDF>\n',
    ],
    runs: rdfCommands('deep.rdf', 'RDF/XML', 3),
  },
  {
    name: 'deep-record.jsonl',
    what: 'newline-delimited records, the second nested 1,000,000 levels (6 MB on one line)',
    generate: () => [
      '{"doi":"10.5555/a","title":"A"}\n{"doi":"10.5555/deep","title":"D","x":',
      ...repeat('[', 1_000_000),
      ...repeat(']', 1_000_000),
      '}\n{"doi":"10.5555/b","title":"B"}\n',
    ],
    runs: [
      {
        args: (f) => ['convert', f, '-f', 'ntriples'],
        exit: 1,
        stderr: [/records read 3, mapped 2, rejected 1/, /record 2 \(line 2\), /, deepRecord],
      },
    ],
  },
  {
    name: 'deep-document.json',
    what: 'one JSON document (an array) whose second record is nested 100,000 levels',
    generate: () => [
      '[{"doi":"10.5555/a","title":"A"},{"doi":"10.5555/deep","title":',
      ...repeat('{"a":', HOSTILE_DEPTH),
      '"x"',
      ...repeat('}', HOSTILE_DEPTH),
      '},{"doi":"10.5555/b","title":"B"}]\n',
    ],
    runs: [
      {
        args: (f) => ['convert', f, '-f', 'ntriples'],
        exit: 1,
        stderr: [/records read 3, mapped 2, rejected 1/, /record 2 \(line 1\), /, deepRecord],
      },
    ],
  },
  {
    name: 'huge-line.json',
    what: 'a 300 MB envelope on one line (documented limit 8 MiB, 256 MiB before; at 256 MiB, 300 MB was read before the limit, 700 MB crashed with a RangeError), then one record',
    heapMiB: 384,
    generate: () => {
      const record = `{"doi":"10.5555/x","title":"${'t'.repeat(1000)}"}`;
      const count = Math.ceil((300 * 2 ** 20) / (record.length + 1));
      return [
        '{"records":[',
        record,
        ...repeat(`,${record}`, count, 1000),
        ']}\n{"doi":"10.5555/after","title":"After"}\n',
      ];
    },
    runs: [
      {
        args: (f) => ['convert', f, '-f', 'ntriples'],
        exit: 1,
        stderr: [
          /records read 2, mapped 1, rejected 1/,
          /record 1 \(line 1\), field \(input\): the line holds more than 8 MiB of JSON, more than is read as a whole/,
        ],
      },
    ],
  },
  {
    name: 'huge-line.nt',
    what: 'an N-Triples literal of 300 MB on one line (a 600 MB one took 1.4 GB to fail with "Invalid string length")',
    heapMiB: 1024,
    generate: () => ['<http://ex.org/s> <http://ex.org/p> "', ...repeat('x', 300 * 2 ** 20, 2 ** 20), '" .\n'],
    runs: [
      {
        args: (f) => ['load', f, '--endpoint', NO_STORE],
        exit: 4,
        stderr: [
          /error \[parse\]: huge-line\.nt:1: line 1 is larger than 8 MiB, more than is read at once: not read \(--max-document-chars raises the limit\)/,
        ],
      },
    ],
  },
  {
    name: 'big.jsonl',
    what: '250 MB of newline-delimited records (200 records of 1.2 MB), read with a heap of 128 MiB: streamed',
    heapMiB: 128,
    generate: function* () {
      for (let i = 0; i < 200; i++)
        yield `${JSON.stringify({ doi: `10.5555/big${i}`, title: `Big ${i}`, abstract: `word ${i} `.repeat(150_000) })}\n`;
    },
    runs: [
      { args: (f) => ['convert', f, '-f', 'ntriples'], exit: 0, stderr: [/records read 200, mapped 200, rejected 0/] },
    ],
  },
  {
    name: 'binary.bin',
    light: true,
    what: '64 kB of noise',
    generate: () => [noise(65536)],
    runs: [
      {
        args: (f) => ['convert', f, '-f', 'ntriples'],
        exit: 1,
        stderr: [/field \(input\): not JSON text: the input looks binary/],
      },
      { args: (f) => ['validate', f], exit: 4, stderr: [/error \[parse\]: binary\.bin: cannot tell the RDF format/] },
    ],
  },
  {
    name: 'truncated.jsonl.gz',
    light: true,
    what: 'gzip of 20,000 records cut in the middle',
    generate: () => {
      const gz = gzipSync(Array.from({ length: 20_000 }, (_, i) => `{"doi":"10.5555/t${i}","title":"T"}\n`).join(''));
      return [gz.subarray(0, gz.length >> 1)];
    },
    runs: [
      {
        args: (f) => ['convert', f, '-f', 'ntriples'],
        exit: 4,
        stderr: [/error \[io\]: truncated\.jsonl\.gz: not a valid gzip file/],
      },
    ],
  },
  {
    name: 'truncated.nt.gz',
    light: true,
    what: 'gzip of 20,000 triples cut in the middle',
    generate: () => {
      const gz = gzipSync(
        Array.from({ length: 20_000 }, (_, i) => `<http://ex.org/s${i}> <http://ex.org/p> "x" .\n`).join(''),
      );
      return [gz.subarray(0, gz.length >> 1)];
    },
    runs: [
      { args: (f) => ['validate', f], exit: 4, stderr: [/error \[io\]: .*truncated\.nt\.gz: not a valid gzip file/] },
      {
        args: (f) => ['load', f, '--endpoint', NO_STORE],
        exit: 4,
        stderr: [/error \[io\]: .*truncated\.nt\.gz: not a valid gzip file/],
      },
    ],
  },
  ...(['nt', 'ttl', 'rdf', 'jsonld'] as const).map((ext): HostileCase => ({
    name: `invalid-utf8.${ext}`,
    light: true,
    what: `invalid UTF-8 (FF FE, a cut sequence, an encoded surrogate) in a literal of ${ext}: U+FFFD, read`,
    generate: () => {
      const bad = Buffer.from([0x61, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x62, 0xc3]);
      const [before, after] = {
        nt: ['<http://ex.org/s> <http://ex.org/p> "', '" .\n'],
        ttl: ['@prefix ex: <http://ex.org/> .\nex:s ex:p "', '" .\n'],
        rdf: [
          `${RDF_HEAD}<rdf:Description rdf:about="http://ex.org/a"><ex:p>`,
          '</ex:p></rdf:Description></rdf:RDF>\n',
        ],
        jsonld: ['{"@context": {"p": "http://ex.org/p"}, "@id": "http://ex.org/a", "p": "', '"}\n'],
      }[ext];
      return [before, bad, after];
    },
    runs: [
      { args: (f) => ['validate', f], exit: 0, stderr: [] },
      { args: (f) => ['convert', f, '-f', 'ntriples'], exit: 0, stderr: [/statements 1\b/] },
    ],
  })),
  ...(['ttl', 'rdf', 'jsonld'] as const).map((ext): HostileCase => ({
    name: `control-bytes.${ext}`,
    light: true,
    what: `terminal escapes, BEL and NUL between the tokens of ${ext}: a parse error that prints them escaped`,
    generate: () => [
      {
        ttl: '@prefix ex: <http://ex.org/> .\nex:s ex:p "a\u001B[31mred" .\n\u001B]0;title\u0007ex:s ex:p 1 .\n',
        rdf: `${RDF_HEAD}<rdf:Description rdf:about="http://ex.org/a"><ex:p>a\u001B[31m\u0000b</ex:p></rdf:Description></rdf:RDF>\n`,
        jsonld: '{"@context": {"p": "http://ex.org/p"}, \u001B[2J"@id": "http://ex.org/a", "p": "a\u0000"}\n',
      }[ext],
    ],
    runs: [
      { args: (f) => ['validate', f], exit: 4, stderr: [new RegExp(`error \\[parse\\]: control-bytes\\.${ext}:\\d+`)] },
    ],
  })),
  {
    name: 'control-bytes.jsonl',
    light: true,
    what: 'terminal escapes in a record and on a line of their own',
    generate: () => ['{"doi":"10.5555/c\u001B[31m","title":"t\u0000\u0007"}\n\u001B]0;x\u0007\n'],
    runs: [
      { args: (f) => ['convert', f, '-f', 'ntriples'], exit: 1, stderr: [/records read 2, mapped 1, rejected 1/] },
    ],
  },
  {
    name: 'unterminated-literal.ttl',
    light: true,
    what: 'a Turtle literal of 4 MB never closed: the parser quotes it, cut',
    generate: () => ['<http://ex.org/s> <http://ex.org/p> "', ...repeat('x', 4_000_000, 1_000_000)],
    runs: [
      {
        args: (f) => ['validate', f],
        exit: 4,
        stderr: [/error \[parse\]: unterminated-literal\.ttl:1: invalid Turtle: Unexpected .*… \(\d+ characters\)/],
      },
    ],
  },
  {
    name: 'unterminated-long-literal.ttl',
    light: true,
    what: 'a Turtle literal of 20 MB never closed: a line past the 8 MiB read at once, refused by name',
    generate: () => ['<http://ex.org/s> <http://ex.org/p> "', ...repeat('x', 20_000_000, 1_000_000)],
    runs: [
      {
        args: (f) => ['validate', f],
        exit: 4,
        stderr: [
          /error \[parse\]: unterminated-long-literal\.ttl:1: line 1 is larger than 8 MiB, .*--max-document-chars raises the limit/,
        ],
      },
    ],
  },
];
