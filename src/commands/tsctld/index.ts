// tsctld: The controller daemon (like slurmctld).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'The controller daemon (like slurmctld).', argv);
}
