/**
 * The public plugin API of tslurm (`import { Bitstr, type SelectPlugin } from 'tslurm/plugin-api'`),
 * the whole SDK a plugin needs at run time: the header every plugin exports, one interface per
 * plugin type with its symbol table, the data objects handed to plugins, Slurm's constants
 * and errno values, and the toolkit's own implementations of what Slurm's plugins link
 * against: bitmaps (`Bitstr`), packing (`Buf`), hostlists, feature expressions and MPICH's
 * process mapping, and running a program (`run_command`). Logging goes through `host.log`,
 * handed to `init`.
 *
 * The built-in plugins import nothing else (a test over their imports keeps it so).
 */
export {
  SLURM_VERSION_NUMBER,
  type MaybePromise,
  type PluginHeader,
  type PluginHost,
  type PluginLog,
  type Rc,
  type SymbolTable,
} from './common.js';
export { SLURM_SUCCESS, SLURM_ERROR, slurm_strerror, errnoValue, type ErrnoName } from './errno.js';
export * from './bitmaps.js';
export * from './pack.js';
export * from './hostlist.js';
export * from './features.js';
export * from './process-mapping.js';
export * from './records.js';
export * from './select.js';
export * from './mpi.js';
export * from './job-container.js';
export * from './proctrack.js';
export * from './auth.js';
export * from './sched.js';
export * from './run-command.js';
export * from './jobcomp.js';
