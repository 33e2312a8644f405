// -t/--states: `all`, or job states by long or short name in any case (`PD,running,CG`).
import { UserErrorReport } from '../../core/errors.js';
import { jobStateNames, jobStateNum } from '../../core/job-state.js';

export function parseStates(text: string): 'all' | number[] {
  if (text.toLowerCase() === 'all') return 'all';
  return text
    .split(',')
    .filter((t) => t !== '')
    .map((name) => {
      const state = jobStateNum(name);
      if (state === undefined) {
        // Two lines, the second ending in squeue's own newline (a blank line follows); exit 1.
        throw new UserErrorReport([
          { error: `Invalid job state specified: ${name}` },
          { error: `Valid job states include: ${jobStateNames().join(',')}` },
          { plain: '' },
        ]);
      }
      return state;
    });
}
