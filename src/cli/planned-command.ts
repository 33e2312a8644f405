// Commands whose work arrives with a later part of tslurm (the controller, the node daemon):
// they answer --help and --version now, and say plainly that the rest is not in this release.
import { createProgram } from './program.js';
import { UserError } from '../core/errors.js';
import { TOOLKIT_VERSION } from '../core/version.js';

export async function runPlannedCommand(bin: string, summary: string, argv: string[]): Promise<number> {
  const program = createProgram(bin, summary)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .action(() => {
      throw new UserError(`${bin} is not available in tslurm ${TOOLKIT_VERSION} yet; see "Status" in the README`);
    });
  await program.parseAsync(argv, { from: 'user' });
  return 0;
}
