// Slurm's sentinel values (slurm/slurm.h). Slurm stores "no limit" and "not set" in the
// top values of each unsigned width instead of using a separate flag, and tslurm keeps
// the same numbers so packed state and printed output mean what they mean in Slurm.

/** "No limit" in a uint32 field (a time limit of UNLIMITED). */
export const INFINITE = 0xffffffff;
/** "Not set" in a uint32 field. */
export const NO_VAL = 0xfffffffe;

export const INFINITE16 = 0xffff;
export const NO_VAL16 = 0xfffe;

export const INFINITE8 = 0xff;
export const NO_VAL8 = 0xfe;

export const INFINITE64 = 0xffff_ffff_ffff_ffffn;
export const NO_VAL64 = 0xffff_ffff_ffff_fffen;
