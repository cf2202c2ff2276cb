import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `term` command lands. */
export function registerTerm(program: Command, _ctx: CliContext): void {
  program
    .command('term')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the term command is not available yet', 'usage');
    });
}
