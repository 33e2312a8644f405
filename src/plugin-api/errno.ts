// Slurm's return codes and errno values for plugins (STYLE.md §3.2): the numbers a hook
// returns or passes to host.slurm_seterrno, and slurm_strerror() to turn them into text.
export { SLURM_SUCCESS, SLURM_ERROR } from './common.js';
export { slurm_strerror, errnoValue, type ErrnoName } from '../core/errno.js';
