// tsinfo: Show nodes and partitions (like sinfo).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'Show nodes and partitions (like sinfo).', argv);
}
