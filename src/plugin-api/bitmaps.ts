/**
 * Bitmaps, as Slurm's `bitstr_t` (src/common/bitstring.c): a fixed-size set of bit indexes,
 * here node indexes. `new Bitstr(n)` is `bit_alloc(n)`; the `bit_*` operations are methods
 * (`set`, `clear`, `test`, `nextSet`, `setCount`, `and`, `or`, `isSubsetOf`, `copy`, ...).
 *
 * The host compares and reads the bitmaps a plugin answers with; build them with this class
 * (from `tslurm/plugin-api`, the copy the running host uses) so they are the host's own.
 */
export { Bitstr, BITSTR_MAX_BITS } from '../core/bitstr.js';
