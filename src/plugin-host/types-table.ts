// The one place that knows the plugin types: their symbol tables, how many may be active,
// and which API versions the host speaks (older plugin_version scheme). The rest of
// plugin-host is generic over this table.
import { selectSymbols } from '../plugin-api/select.js';
import { mpiSymbols, mpiAliases } from '../plugin-api/mpi.js';
import { jobContainerSymbols } from '../plugin-api/job-container.js';
import { proctrackSymbols } from '../plugin-api/proctrack.js';
import { authSymbols } from '../plugin-api/auth.js';
import { schedSymbols } from '../plugin-api/sched.js';
import { jobcompSymbols } from '../plugin-api/jobcomp.js';

export type Cardinality = 'one' | 'per-step' | 'stack';

export interface PluginTypeInfo {
  /** API functions: required ones must be exported, optional ones get the host's default. */
  readonly symbols: Readonly<Record<string, 'required' | 'optional'>>;
  /** Other names accepted for a symbol (newer Slurm's spelling → the documented one). */
  readonly aliases: Readonly<Record<string, string>>;
  /** select: one active plugin; mpi: chosen per step; stack: several, called in order. */
  readonly cardinality: Cardinality;
  /** Older scheme (`plugin_version` = API major*1000 + minor): the API majors the host speaks. */
  readonly api: { readonly oldest: number; readonly current: number };
}

export const pluginTypes = {
  select: { symbols: selectSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
  mpi: { symbols: mpiSymbols, aliases: mpiAliases, cardinality: 'per-step', api: { oldest: 0, current: 0 } },
  // Job Container Plugin API "version 101": plugin_version 101 is API major 0, revision 101.
  job_container: { symbols: jobContainerSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
  proctrack: { symbols: proctrackSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
  auth: { symbols: authSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
  sched: { symbols: schedSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
  jobcomp: { symbols: jobcompSymbols, aliases: {}, cardinality: 'one', api: { oldest: 0, current: 0 } },
} as const satisfies Record<string, PluginTypeInfo>;

export type PluginMajor = keyof typeof pluginTypes;

export const pluginMajors = Object.keys(pluginTypes) as PluginMajor[];

export function isPluginMajor(name: string): name is PluginMajor {
  return Object.hasOwn(pluginTypes, name);
}

export function pluginTypeInfo(major: PluginMajor): PluginTypeInfo {
  return pluginTypes[major];
}
