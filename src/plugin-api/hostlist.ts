/**
 * Hostlists, as Slurm's src/common/hostlist.c: `expandHostlist('n[01-03],m7')` gives the
 * names, `compressHostlist(names)` the shortest expression in the given order,
 * `compressHostlistSorted` after sorting, `rangedHostlist` a bracketed expression rewritten.
 * A malformed expression throws `HostlistError` (a user error, with Slurm's text).
 */
export {
  expandHostlist,
  compressHostlist,
  compressHostlistSorted,
  compressHostlistUnique,
  rangedHostlist,
  rangedHostlistSorted,
  HostlistError,
  HOSTLIST_LIMITS,
} from '../core/hostlist.js';
