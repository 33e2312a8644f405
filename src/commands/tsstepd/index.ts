// tsstepd: The node and step daemon (like slurmd and slurmstepd).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'The node and step daemon (like slurmd and slurmstepd).', argv);
}
