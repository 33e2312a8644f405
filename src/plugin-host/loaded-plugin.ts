// A plugin that passed its checks and init: what the facades hold and call through invoke.ts.
import type { PluginMajor } from './types-table.js';

export interface LoadedPlugin {
  readonly type: string;
  readonly major: PluginMajor;
  readonly name: string;
  readonly file: string;
  readonly builtin: boolean;
  /** How plugin_version was read: the toolkit scheme, the older API number, or absent. */
  readonly versionScheme: 'toolkit' | 'api' | 'none';
  /** The API version spoken with this plugin (older scheme; 0 otherwise). */
  readonly apiVersion: number;
  /** Minor revision: the highest wins among modules declaring the same plugin_type. */
  readonly revision: number;
  readonly versionDisplay: string;
  /** The API functions the module exports, under their documented names (aliases resolved). */
  readonly functions: ReadonlyMap<string, Function>;
  readonly module: Readonly<Record<string, unknown>>;
  /** Slurm's per-plugin errno, set by the plugin through host.slurm_seterrno(). */
  errno: number;
}
