import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { registerConvert } from './convert.js';
import { registerExport } from './export.js';
import { registerGet } from './get.js';
import { registerSearch } from './search.js';
import { registerLoad } from './load.js';
import { registerServe } from './serve.js';
import { registerTerm } from './term.js';
import { registerValidate } from './validate.js';

/** Adds one command (or a few related ones) to the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** Every command of the CLI, in the order `--help` lists them. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerConvert,
  registerExport,
  registerSearch,
  registerGet,
  registerValidate,
  registerLoad,
  registerTerm,
  registerServe,
];
