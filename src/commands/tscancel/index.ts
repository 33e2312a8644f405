// tscancel: Cancel or signal jobs (like scancel).
import { runPlannedCommand } from '../../cli/planned-command.js';

export function run(argv: string[], bin: string): Promise<number> {
  return runPlannedCommand(bin, 'Cancel or signal jobs (like scancel).', argv);
}
