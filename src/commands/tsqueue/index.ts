// tsqueue: Show the job queue (like squeue).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'Show the job queue (like squeue).', argv);
}
