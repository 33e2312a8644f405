/**
 * What every tslurm plugin exports, whatever its type (Slurm's Plugin API page):
 * `plugin_type`, `plugin_name`, optionally `plugin_version` / `plugin_legacy`, `init`, `fini`.
 *
 * Functions may be synchronous or return a promise. They return {@link SLURM_SUCCESS} or
 * {@link SLURM_ERROR} (after {@link PluginHost.slurm_seterrno}) for expected outcomes; a
 * plugin that *throws* has crashed, and the host reports it with the plugin type and hook.
 */

/** A Slurm return code: SLURM_SUCCESS (0), SLURM_ERROR (-1), or an errno value. */
export type Rc = number;

export const SLURM_SUCCESS = 0;
export const SLURM_ERROR = -1;

/** A value or a promise of it: every hook may be async. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Encodes a toolkit version the way Slurm's SLURM_VERSION_NUMBER does:
 * `(major << 16) | (minor << 8) | micro`. Use it for `plugin_version` to tie a plugin to
 * the tslurm release it was built for (major.minor must match the running toolkit).
 */
export function SLURM_VERSION_NUMBER(major: number, minor: number, micro: number): number {
  return ((major & 0xff) << 16) | ((minor & 0xff) << 8) | (micro & 0xff);
}

/** The log a plugin writes through (Slurm's error()/info()/verbose()/debug()). */
export interface PluginLog {
  error(message: string): void;
  info(message: string): void;
  verbose(message: string): void;
  debug(message: string): void;
}

/** What the host hands to `init`: logging, errno, and a read-only view of the cluster. */
export interface PluginHost {
  readonly log: PluginLog;
  /** Sets the errno the host reads after a hook returns SLURM_ERROR (Slurm's slurm_seterrno). */
  slurm_seterrno(errnum: number): void;
  /** Slurm's text for an errno value. */
  slurm_strerror(errnum: number): string;
  /** The running toolkit's version. */
  readonly version: { readonly major: number; readonly minor: number; readonly micro: number };
  /** The options block of the cluster YAML for this plugin (`<major>_<minor>:` key), or {}. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The cluster name from the YAML. */
  readonly clusterName: string;
  /**
   * Now, Unix seconds (Slurm's `time(NULL)`). Read time through this rather than `Date.now()`:
   * under `tsctld --simulate` it is the simulation's virtual clock.
   */
  time(): number;
}

/** The header symbols every plugin exports. */
export interface PluginHeader {
  /** `"major/minor"`: the major names the API (`select`), the minor this implementation (`linear`). */
  readonly plugin_type: string;
  /** Free-form name shown to users, e.g. `"Linear node selection plugin"`. */
  readonly plugin_name: string;
  /**
   * Optional. Either a toolkit version from {@link SLURM_VERSION_NUMBER} (≥ 65536: must match
   * the running toolkit's major.minor), or the older API number `major*1000 + minor` (< 65536),
   * negotiated with `plugin_legacy`. Absent: loads anywhere (a warning under `-v`).
   */
  readonly plugin_version?: number;
  /** Older scheme only: the lowest API version (`major*1000+minor`) this plugin still speaks. */
  readonly plugin_legacy?: number;
  /** Called once just after loading; anything but SLURM_SUCCESS unloads the plugin. */
  init?(host: PluginHost): MaybePromise<Rc | void>;
  /** Called once before unloading, in reverse load order. */
  fini?(): MaybePromise<Rc | void>;
}

/**
 * Per-type symbol table: every API function of a plugin type, marked `required` (the host
 * refuses a plugin without it) or `optional` (the host supplies the documented no-op).
 * Checked against the type's interface with `satisfies`, so the list cannot drift.
 */
export type SymbolTable<T> = { readonly [K in Exclude<keyof T, keyof PluginHeader>]-?: 'required' | 'optional' };
