/**
 * The public plugin API of tslurm (`import type { SelectPlugin } from 'tslurm/plugin-api'`):
 * the header every plugin exports, one interface per plugin type with its symbol table, the
 * data objects handed to plugins, and Slurm's constants and errno values.
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
export type { Buf } from '../core/buf.js';
export * from './records.js';
export * from './select.js';
export * from './mpi.js';
export * from './job-container.js';
export * from './proctrack.js';
export * from './auth.js';
export * from './sched.js';
