// The three kinds of error a command can end with (STYLE.md §3.5). Expected failures are
// UserError (bad input, bad config, a refused job) or PluginError (a plugin refused to
// load or crashed in a hook); anything else reaching the CLI boundary is an internal bug.
import { errnoValue, slurm_strerror, type ErrnoName } from './errno.js';

export interface UserErrorOptions {
  /** Slurm errno name, when the failure has one. */
  code?: ErrnoName;
  /** Exit status; 1 unless Slurm uses another for this case. */
  exitCode?: number;
  cause?: unknown;
  /** Print the message as it is, without `<bin>: error: ` (some Slurm messages have none). */
  bare?: boolean;
}

/** Bad input or a refused request: one line on stderr, no stack. */
export class UserError extends Error {
  readonly code: ErrnoName | undefined;
  readonly exitCode: number;
  readonly bare: boolean;

  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.code = options.code;
    this.exitCode = options.exitCode ?? 1;
    this.bare = options.bare === true;
  }

  /** A UserError whose text is Slurm's strerror for `code`, after an optional prefix. */
  static fromErrno(code: ErrnoName, prefix?: string, exitCode = 1): UserError {
    const text = slurm_strerror(code);
    return new UserError(prefix ? `${prefix}: ${text}` : text, { code, exitCode });
  }

  get errno(): number | undefined {
    return this.code === undefined ? undefined : errnoValue(this.code);
  }
}

/** Several problems found at once (a cluster file with three mistakes): one line each. */
export class UserErrorList extends UserError {
  readonly messages: readonly string[];

  constructor(messages: readonly string[], options: UserErrorOptions = {}) {
    super(messages.join('\n'), options);
    this.name = 'UserErrorList';
    this.messages = messages;
  }
}

/** One line of a multi-line report: an error() line (`<bin>: error: ` is added) or one printed as it is. */
export type ReportLine = { error: string } | { plain: string };

/**
 * Slurm's multi-line refusals that mix error() lines with bare ones (scontrol update's error
 * lines, then `slurm_update error: No error`); the boundary prints each line in its form.
 */
export class UserErrorReport extends UserError {
  readonly lines: readonly ReportLine[];

  constructor(lines: readonly ReportLine[], options: UserErrorOptions = {}) {
    super(lines.map((line) => ('error' in line ? line.error : line.plain)).join('\n'), options);
    this.name = 'UserErrorReport';
    this.lines = lines;
  }
}

/** A plugin failed to load, or failed (threw, timed out) inside a hook. */
export class PluginError extends UserError {
  readonly pluginType: string;
  readonly hook: string | undefined;

  constructor(
    pluginType: string,
    message: string,
    options: UserErrorOptions & { hook?: string } = {},
  ) {
    const where = options.hook ? `${pluginType}: ${options.hook}` : pluginType;
    super(`${where}: ${message}`, options);
    this.name = 'PluginError';
    this.pluginType = pluginType;
    this.hook = options.hook;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
