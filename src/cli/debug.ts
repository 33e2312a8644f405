// How much a command says about itself: -v counts, and TSLURM_DEBUG=1 for stacks.

/** Number of -v given (`-v -v`, `-vv`, `--verbose`), counted before option parsing so that
 *  even a parse error knows whether to show a stack. Stops at `--` and at the first
 *  non-option word (the user's command, whose own -v is not ours). */
export function countVerbose(argv: readonly string[]): number {
  let count = 0;
  for (const arg of argv) {
    if (arg === '--' || !arg.startsWith('-')) break;
    if (arg === '--verbose') count++;
    else if (/^-v+$/.test(arg)) count += arg.length - 1;
  }
  return count;
}

/** Stacks are shown for -vvv or TSLURM_DEBUG set to anything but "" or "0". */
export function wantsStack(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const debug = env.TSLURM_DEBUG;
  return (debug !== undefined && debug !== '' && debug !== '0') || countVerbose(argv) >= 3;
}
