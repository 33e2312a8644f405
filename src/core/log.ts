// Slurm-style log lines on stderr: `tsrun: error: ...` always, `tsrun: ...` for info,
// verbose lines from -v, debug lines from -vv. The CLI boundary sets the program name and level.

export type LogLevel = 'quiet' | 'info' | 'verbose' | 'debug';

const rank: Record<LogLevel, number> = { quiet: 0, info: 1, verbose: 2, debug: 3 };

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  verbose(message: string): void;
  debug(message: string): void;
}

export function createLogger(
  prog: string,
  level: LogLevel = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const at = (needed: LogLevel, text: string): void => {
    if (rank[level] >= rank[needed]) write(`${prog}: ${text}\n`);
  };
  return {
    error: (message) => write(`${prog}: error: ${message}\n`),
    warn: (message) => at('info', `warning: ${message}`),
    info: (message) => at('info', message),
    verbose: (message) => at('verbose', message),
    debug: (message) => at('debug', message),
  };
}

/** -v count to a level: none → info, -v → verbose, -vv and more → debug; -Q → quiet. */
export function levelFromVerbosity(verbose: number, quiet = false): LogLevel {
  if (quiet) return 'quiet';
  return verbose >= 2 ? 'debug' : verbose === 1 ? 'verbose' : 'info';
}
