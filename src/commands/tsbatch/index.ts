// tsbatch: Submit a batch script to the queue (like sbatch).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'Submit a batch script to the queue (like sbatch).', argv);
}
