// Numbers as slurm.conf writes them. A value that is not a plain number is passed on as text,
// so the cluster schema names it in its own words ("expected a positive integer, got ...").

/** `8` → 8; anything else stays text. */
export function num(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}

/** The number, when the value is a plain non-negative integer. */
export function plain(value: string | undefined): number | undefined {
  const n = num(value);
  return typeof n === 'number' ? n : undefined;
}

/** Slurm's boolean words (s_p_get_boolean): YES/TRUE/1 and NO/FALSE/0, any case. */
export function bool(value: string): boolean | undefined {
  const word = value.trim().toLowerCase();
  if (word === 'yes' || word === 'true' || word === 'y' || word === '1') return true;
  if (word === 'no' || word === 'false' || word === 'n' || word === '0') return false;
  return undefined;
}
