import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SHAPES_DIR } from '../../src/shacl/shapesFiles.js';
import { convertFiles } from '../../src/tasks/convertFiles.js';
import { exportDump } from '../../src/tasks/exportDump.js';
import { loadDump } from '../../src/tasks/loadDump.js';
import { refuseOverwritingInputs, shapeFiles } from '../../src/tasks/refuseOverwritingInputs.js';
import { validateDump } from '../../src/tasks/validateDump.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'refuse-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (name: string) => join(dir, name);
const out = (name: string, what = `\`${name}\``) => ({ path: at(name), what });

describe('refuseOverwritingInputs', () => {
  it('refuses an output that is an input: by its path, a symbolic link or a hard link', () => {
    writeFileSync(at('in.json'), '{}');
    symlinkSync(at('in.json'), at('link.json'));
    linkSync(at('in.json'), at('hard.json'));
    for (const name of ['in.json', 'link.json', 'hard.json']) {
      expect(() => refuseOverwritingInputs([out(name, 'the report')], [at('in.json')])).toThrow(
        expect.objectContaining({
          code: 'usage',
          message: `the report (${at(name)}) would overwrite the input ${at('in.json')}: choose another file`,
        }),
      );
    }
    expect(() => refuseOverwritingInputs([out('other.json')], [at('in.json')])).not.toThrow();
  });

  it('refuses two outputs that are one file, existing or still to be written', () => {
    mkdirSync(at('sub'));
    symlinkSync(at('sub'), at('alias'));
    symlinkSync(at('sub/target.nt'), at('dangling.nt')); // a link to a file still to come
    const same: [string, string][] = [
      ['a.nt', 'a.nt'],
      ['a.nt', 'sub/../a.nt'],
      ['sub/b.nt', 'alias/b.nt'],
      ['dangling.nt', 'sub/target.nt'],
    ];
    for (const [a, b] of same) {
      expect(() => refuseOverwritingInputs([out(a, '`metaPath`'), out(b, '`statePath`')], [])).toThrow(
        expect.objectContaining({
          code: 'usage',
          message: `\`metaPath\` (${at(a)}) and \`statePath\` (${at(b)}) are one file: choose another file for one of them`,
        }),
      );
    }
    writeFileSync(at('x.nt'), '');
    linkSync(at('x.nt'), at('y.nt'));
    expect(() => refuseOverwritingInputs([out('x.nt'), out('y.nt')], [])).toThrow(/are one file/);
    expect(() => refuseOverwritingInputs([out('x.nt'), out('z.nt'), out('sub/x.nt')], [])).not.toThrow();
  });

  it('lets stdin/stdout and what is no regular file be named twice', () => {
    expect(() =>
      refuseOverwritingInputs(
        [
          { path: '-', what: 'a' },
          { path: '-', what: 'b' },
        ],
        ['-'],
      ),
    ).not.toThrow();
    expect(() =>
      refuseOverwritingInputs(
        [
          { path: '/dev/null', what: 'a' },
          { path: '/dev/null', what: 'b' },
        ],
        ['/dev/null'],
      ),
    ).not.toThrow();
  });
});

describe('shapeFiles', () => {
  it('lists the Turtle files of a directory, or the one file, or nothing', () => {
    expect(shapeFiles().sort()).toEqual(
      readdirSync(DEFAULT_SHAPES_DIR)
        .filter((f) => f.endsWith('.ttl'))
        .map((f) => join(DEFAULT_SHAPES_DIR, f))
        .sort(),
    );
    writeFileSync(at('s.ttl'), '');
    writeFileSync(at('notes.txt'), '');
    expect(shapeFiles(dir)).toEqual([at('s.ttl')]);
    expect(shapeFiles(at('s.ttl'))).toEqual([at('s.ttl')]);
    expect(shapeFiles(at('missing'))).toEqual([]);
  });
});

describe('every job refuses before it writes anything', () => {
  const RECORD = JSON.stringify({
    doi: '10.1007/s1',
    title: 'A title',
    publicationName: 'J',
    contentType: 'Article',
    publicationDate: '2020-01-01',
  });
  /** Runs a job that must be refused; no file of the folder may change, none may appear. */
  async function refused(job: () => Promise<unknown>, message: RegExp): Promise<void> {
    const before = new Map(readdirSync(dir).map((f) => [f, readFileSync(at(f), 'utf8')]));
    await expect(job()).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(message) });
    expect(new Map(readdirSync(dir).map((f) => [f, readFileSync(at(f), 'utf8')]))).toEqual(before);
  }

  it('convert: the output, rejects and notes against the inputs, the shapes and each other', async () => {
    writeFileSync(at('p.json'), RECORD);
    writeFileSync(at('s.ttl'), '# shapes');
    await refused(
      () => convertFiles({ inputs: [at('p.json')], output: at('p.json'), format: 'turtle' }),
      /^`output` \(.*p\.json\) would overwrite the input/,
    );
    await refused(
      () => convertFiles({ inputs: [at('p.json')], output: at('o.ttl'), rejectsPath: at('p.json') }),
      /^`rejectsPath` .* would overwrite the input/,
    );
    await refused(
      () => convertFiles({ inputs: [at('p.json')], output: at('o.ttl'), notesPath: at('p.json') }),
      /^`notesPath` .* would overwrite the input/,
    );
    await refused(
      () => convertFiles({ inputs: [at('p.json')], output: at('o.ttl'), notesPath: at('o.ttl') }),
      /^`output` .* and `notesPath` .* are one file/,
    );
    await refused(
      () =>
        convertFiles({
          inputs: [at('p.json')],
          output: at('o.ttl'),
          rejectsPath: at('r.jsonl'),
          notesPath: at('r.jsonl'),
        }),
      /^`rejectsPath` .* and `notesPath` .* are one file/,
    );
    await refused(
      () => convertFiles({ inputs: [at('p.json')], output: at('o.ttl'), rejectsPath: at('o.ttl') }),
      /^`output` .* and `rejectsPath` .* are one file/,
    );
    await refused(
      () =>
        convertFiles({
          inputs: [at('p.json')],
          output: at('o.ttl'),
          validate: true,
          shapesDir: dir,
          notesPath: at('s.ttl'),
        }),
      /^`notesPath` .* would overwrite the input .*s\.ttl/,
    );
  });

  it("convert to a name that is a hard link of an earlier run's output: that output is left as it was", async () => {
    // Issue 32: two exports to hard-linked names both ended 0 and one dump was overwritten. Outputs are written
    // beside their name and renamed into place: the rename gives the name a file of its own, the link's other
    // name keeps the earlier bytes.
    writeFileSync(at('p.json'), RECORD);
    await convertFiles({ inputs: [at('p.json')], output: at('a.nt'), format: 'ntriples' });
    const first = readFileSync(at('a.nt'), 'utf8');
    linkSync(at('a.nt'), at('b.nt'));
    writeFileSync(at('q.json'), RECORD.replace(/10\.[0-9]+\/[^"]+/, '10.5555/other'));
    await convertFiles({ inputs: [at('q.json')], output: at('b.nt'), format: 'ntriples' });
    expect(readFileSync(at('a.nt'), 'utf8')).toBe(first);
    expect(readFileSync(at('b.nt'), 'utf8')).toContain('10.5555/other');
  });

  it('validate: the report against the inputs and the shapes', async () => {
    writeFileSync(at('d.nt'), '<http://example.org/s> <http://example.org/p> "o" .\n');
    writeFileSync(at('s.ttl'), '# shapes');
    await refused(
      () => validateDump({ files: ['d.nt'], cwd: dir, reportPath: 'd.nt' }),
      /^the report \(.*d\.nt\) would overwrite the input .*d\.nt/,
    );
    await refused(
      () => validateDump({ files: ['d.nt'], cwd: dir, shapesDir: 's.ttl', reportPath: 's.ttl' }),
      /^the report .* would overwrite the input .*s\.ttl/,
    );
    await refused(
      () => validateDump({ files: ['d.nt'], cwd: dir, shapesDir: '.', reportPath: 's.ttl' }),
      /^the report .* would overwrite the input .*s\.ttl/,
    );
  });

  it('load: the load log against the inputs', async () => {
    writeFileSync(at('d.nt'), '<http://example.org/s> <http://example.org/p> "o" .\n');
    await refused(
      () => loadDump({ files: ['d.nt'], cwd: dir, endpoint: 'http://127.0.0.1:9/ds', statePath: 'd.nt' }),
      /^the load log \(.*d\.nt\) would overwrite the input/,
    );
  });

  it('export: the dump, its state and DOI side file, the description, the rejects and the load log against each other', async () => {
    const base = { query: 'type:Journal', sample: true } as const;
    const cases: [Parameters<typeof exportDump>[0], RegExp][] = [
      [{ ...base, output: at('e.nt'), statePath: at('e.nt') }, /^`output` .* and `statePath` .* are one file/],
      [
        { ...base, output: at('e.nt'), metaPath: at('e.nt.state.json') },
        /^`statePath` .* and `metaPath` .* are one file/,
      ],
      [
        { ...base, output: at('e.nt'), rejectsPath: at('e.nt.state.json.seen') },
        /^the DOI side file of `statePath` .* and `rejectsPath` .* are one file/,
      ],
      [
        { ...base, output: at('e.nt'), metaPath: at('m.ttl'), rejectsPath: at('m.ttl') },
        /^`metaPath` .* and `rejectsPath` .* are one file/,
      ],
      [{ ...base, output: at('e.nt'), rejectsPath: at('e.nt') }, /^`output` .* and `rejectsPath` .* are one file/],
      [
        {
          ...base,
          output: at('e.nt'),
          load: { endpoint: 'http://127.0.0.1:9/ds', cwd: dir, statePath: 'e.nt.state.json' },
        },
        /^`statePath` .* and the load log of `load` .* are one file/,
      ],
    ];
    for (const [options, message] of cases) await refused(() => exportDump(options), message);
    // To stdout: the description and the rejects are still files.
    await refused(
      () => exportDump({ ...base, stream: new PassThrough(), metaPath: at('m.ttl'), rejectsPath: at('m.ttl') }),
      /^`metaPath` .* and `rejectsPath` .* are one file/,
    );
    // An existing file named twice through a link: refused as well.
    writeFileSync(at('e.nt'), 'an earlier dump');
    symlinkSync(at('e.nt'), at('meta-link.ttl'));
    await refused(
      () => exportDump({ ...base, output: at('e.nt'), metaPath: at('meta-link.ttl') }),
      /^`output` .* and `metaPath` .* are one file/,
    );
  });
});
