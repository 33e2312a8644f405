// One option of a Slurm-style command, as one table row drives parsing (getopt.ts), --help
// and --usage (help.ts) and the `-v` "defined options" block: what getopt_long is told
// (name, short letter, argument kind) plus what the help shows.

/** getopt_long's has_arg: an optional argument is taken only when attached (`-I5`, `--nice=5`). */
export type ArgKind = 'none' | 'required' | 'optional';

/** The commands that share the job options. */
export type JobCommand = 'srun' | 'sbatch' | 'salloc';

/**
 * The sections of --help, in the order they print: srun's, sbatch's and salloc's, and 'main'
 * for the untitled list the other commands (squeue, sinfo, scancel, ...) print first.
 */
export type HelpSection = 'main' | 'run' | 'constraint' | 'resources' | 'affinity' | 'gpu' | 'help' | 'other' | 'tslurm';

export interface OptionSpec {
  /** The long name without dashes (`cpus-per-task`); '' for a short-only option (tsctld's -D). */
  long: string;
  /** The short letter, if any. */
  short?: string;
  arg: ArgKind;
  /** The metavariable in --help (`ncpus`); absent for flags. */
  meta?: string;
  /** Our own description for --help. */
  help: string;
  /** The field the value lands in (camelCase of the long name unless given). */
  key: string;
  /** For a flag: the value it sets (true unless given: --no-requeue sets requeue=false). */
  flagValue?: string | boolean;
  section: HelpSection;
  /** Accepted but not listed by --help (aliases and undocumented options, as in Slurm). */
  hidden?: boolean;
  /** A flag that counts its occurrences (-v, scontrol's -d): the value is the count. */
  counts?: boolean;
}

/** An option as found on a command line, in order. */
export interface Occurrence {
  spec: OptionSpec;
  /** The argument, when the option took one; undefined for a flag or a missing optional one. */
  value: string | undefined;
  /** The word as written (`--nod=2`, `-n4`), for messages. */
  word: string;
  /** Its index among the words parsed (set by getopt()). */
  index?: number;
}

/** `cpus-per-task` → `cpusPerTask`. */
export function camelKey(long: string): string {
  return long.replace(/[-_]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
