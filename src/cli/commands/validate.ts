import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `validate` command lands. */
export function registerValidate(program: Command, _ctx: CliContext): void {
  program
    .command('validate')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the validate command is not available yet', 'usage');
    });
}
