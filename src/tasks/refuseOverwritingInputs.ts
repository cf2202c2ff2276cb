import { type Stats, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ToolkitError } from '../errors.js';
import { readExportState } from '../export/ExportState.js';
import type { ShardNaming } from '../output/ShardNaming.js';
import { DEFAULT_SHAPES_DIR, isShapesFileName } from '../shacl/shapesFiles.js';

/** A file a job writes, named for messages (`` `rejectsPath` ``, "the report"). */
export interface NamedOutput {
  path: string;
  /** What the file is, as a message names it. */
  what: string;
  /**
   * Files whose number is not known before the run (shards): every file of
   * `folder` whose name `has` says is one, those there now and those to come.
   * `path` then names them for messages (`dump.*.nq.gz`). Defaults to none
   * (the one file `path`).
   */
  family?: { folder: string; has: (name: string) => boolean };
}

/**
 * A usage error when an output would replace one of the inputs, or two
 * outputs are one file: `validate d.ttl --report d.ttl` must not truncate the
 * dump before reading it, `export --state x --meta x` must not write its
 * description over its checkpoint. Files are compared as the file system
 * sees them: an existing file by device and inode (whatever path, symbolic
 * or hard link names it), a file still to be created by its real path (its
 * folder's links resolved, a link to nothing yet followed). Call it before
 * anything is opened for writing. Only regular files (or files still to
 * come) clash: stdin/stdout (`-`), `/dev/stdout` or a pipe may be named twice.
 */
export function refuseOverwritingInputs(outputs: readonly NamedOutput[], inputs: readonly string[]): void {
  refuseFamilyClashes(outputs);
  outputs = outputs.flatMap((o) => (o.family ? familyMembers(o) : [o]));
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    const id = existingFileId(input);
    if (id) inputIds.set(id, input);
  }
  const outputIds = new Map<string, NamedOutput>();
  for (const output of outputs) {
    const id = outputId(output.path);
    if (id === undefined) continue;
    const input = inputIds.get(id);
    if (input !== undefined)
      throw new ToolkitError(
        `${output.what} (${output.path}) would overwrite the input ${input}: choose another file`,
        'usage',
      );
    const earlier = outputIds.get(id);
    if (earlier)
      throw new ToolkitError(
        `${earlier.what} (${earlier.path}) and ${output.what} (${output.path}) are one file: choose another file for one of them`,
        'usage',
      );
    outputIds.set(id, output);
  }
}

/**
 * The files of a sharded output, as outputs: its shards (finished or
 * partial, those there now and those to come), its manifest and the
 * manifest's temporary file. `what` names the option (`` `output` ``).
 */
export function shardOutputs(naming: ShardNaming, what: string): NamedOutput[] {
  return [
    {
      path: join(naming.folder, `${naming.stem}.*${naming.suffix}`),
      what: `the shards of ${what}`,
      family: { folder: naming.folder, has: (name) => naming.isShardName(name) },
    },
    { path: naming.manifestPath, what: `the manifest of ${what}` },
    { path: `${naming.manifestPath}.tmp`, what: `the temporary file of the manifest of ${what}` },
  ];
}

/**
 * A usage error when shards named after `output` would overwrite the
 * finished shards of an export that is not finished (its state file, the
 * default `<output>.state.json`, says so): resuming it would then fail.
 */
export async function refuseUnfinishedExport(output: string, what = '`output`'): Promise<void> {
  const statePath = `${output}.state.json`;
  const state = await readExportState(statePath).catch(() => undefined);
  if (state && !state.complete) {
    throw new ToolkitError(
      `${what} (${output}) names the shards of an unfinished export (its state is ${statePath}): writing them would overwrite that export's; finish it with \`resume\`, or choose another file`,
      'usage',
    );
  }
}

/** The members of a family there now, as outputs of their own (a link among them to an input is a clash too). */
function familyMembers(output: NamedOutput): NamedOutput[] {
  const { folder, has } = output.family!;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.filter(has).map((name) => ({ path: join(folder, name), what: output.what }));
}

/** A usage error when a single output is a file a family would take (`--rejects dump.00001.nt` beside shards `dump.*.nt`). */
function refuseFamilyClashes(outputs: readonly NamedOutput[]): void {
  for (const family of outputs.filter((o) => o.family)) {
    const folder = realPathToBe(resolve(family.family!.folder));
    for (const other of outputs) {
      if (other.family || other.path === '-') continue;
      const real = realPathToBe(resolve(other.path));
      if (dirname(real) === folder && family.family!.has(basename(real))) {
        throw new ToolkitError(
          `${family.what} (${family.path}) and ${other.what} (${other.path}) are one file: choose another file for one of them`,
          'usage',
        );
      }
    }
  }
}

/**
 * The shapes files a validation reads (inputs too: a report must not replace
 * them): the `*.ttl` files of a directory, or the one file given. Defaults to
 * the shipped `shapes/`. Nothing when it cannot be read (the validation says why).
 */
export function shapeFiles(shapesDir: string = DEFAULT_SHAPES_DIR): string[] {
  try {
    return readdirSync(shapesDir, { withFileTypes: true })
      .filter((e) => e.isFile() && isShapesFileName(e.name))
      .map((e) => join(shapesDir, e.name));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? [shapesDir] : [];
  }
}

/** An output's identity: the existing file's, else its real path; undefined for `-` and what is no regular file. */
function outputId(path: string): string | undefined {
  if (path === '-') return undefined;
  const info = statOrUndefined(path);
  if (info) return info.isFile() ? `${info.dev}:${info.ino}` : undefined;
  return `path:${realPathToBe(resolve(path))}`;
}

/** Device and inode of an existing regular file, or undefined (none there, not a file, or `-`). */
function existingFileId(path: string): string | undefined {
  if (path === '-') return undefined;
  const info = statOrUndefined(path);
  return info?.isFile() ? `${info.dev}:${info.ino}` : undefined;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The real path a file that does not exist yet will have: its folder's real path, a dangling link followed. */
function realPathToBe(path: string, depth = 0): string {
  try {
    return realpathSync(path);
  } catch {
    // not there (yet)
  }
  if (depth < 32) {
    try {
      if (lstatSync(path).isSymbolicLink()) return realPathToBe(resolve(dirname(path), readlinkSync(path)), depth + 1);
    } catch {
      // no link either
    }
  }
  const parent = dirname(path);
  return parent === path ? path : join(realPathToBe(parent, depth), basename(path));
}
