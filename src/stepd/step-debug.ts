// srun's --slurmd-debug: the step daemon's own log lines on the step's stderr, as slurmstepd
// prints them there at the level asked for (observed on 22.05, /work/ref/slurmd-debug.txt):
// `verbose` lines bare, `debug:  ` and `debug2: ` prefixed, each after the daemon's name.

/** Slurm's log levels by number (log.h), for the "debug levels are" line. */
const LEVEL_NAMES = ['quiet', 'fatal', 'error', 'info', 'verbose', 'debug', 'debug2', 'debug3', 'debug4', 'debug5'];
const VERBOSE = 4;
const DEBUG = 5;
const DEBUG2 = 6;

export interface StepDebug {
  verbose(text: string): void;
  debug(text: string): void;
  debug2(text: string): void;
}

/** A logger at stderr level `level` (undefined: --slurmd-debug not given, nothing is printed). */
export function stepDebug(level: number | undefined, daemonName: string, write: (line: string) => void): StepDebug {
  const at = (threshold: number, prefix: string) => (text: string) => {
    if (level !== undefined && level >= threshold) write(`${daemonName}: ${prefix}${text}`);
  };
  const log = { verbose: at(VERBOSE, ''), debug: at(DEBUG, 'debug:  '), debug2: at(DEBUG2, 'debug2: ') };
  if (level !== undefined) log.verbose(`debug levels are stderr='${LEVEL_NAMES[level] ?? level}', logfile='info', syslog='fatal'`);
  return log;
}
