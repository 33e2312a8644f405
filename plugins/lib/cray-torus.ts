// The machine's shape for select/cray_aries (Slurm's select_p_ba_init on Cray): each node's
// coordinates are the last D characters of its name, one base-36 digit per dimension (0-9,
// then A-Z for 10-35, Slurm's select_char2coord), so `nid012` is x=0, y=1, z=2 in 3 dimensions.
// The dimensions are the torus size given in the cluster YAML (`dims: [4, 2, 2]`), else, as
// Slurm computes them, one more than the highest coordinate seen in each dimension.

/** A node's coordinates, or null when its name does not end in D coordinate digits. */
export function coordsOf(name: string, dimCount: number): number[] | null {
  if (dimCount < 1 || name.length < dimCount) return null;
  const coords = [...name.slice(-dimCount)].map(char2coord);
  return coords.every((c) => c >= 0) ? coords : null;
}

/** Slurm's select_char2coord: '0'-'9' → 0-9, 'A'-'Z' → 10-35, anything else → -1. */
export function char2coord(char: string): number {
  if (char >= '0' && char <= '9') return char.charCodeAt(0) - 48;
  if (char >= 'A' && char <= 'Z') return char.charCodeAt(0) - 55;
  return -1;
}

export interface Torus {
  /** Size of each dimension. */
  readonly dims: readonly number[];
  /** Coordinates per node, in node-table order (null: the name carries none). */
  readonly coords: ReadonlyArray<readonly number[] | null>;
}

/**
 * The torus of a node table: `declared` dimensions (from the YAML) or those the coordinates
 * span. With `sanityCheck`, every node must have coordinates inside the dimensions, and no two
 * nodes the same ones; the first problem is thrown (Slurm's ba_init is fatal on them).
 */
export function buildTorus(names: readonly string[], declared: readonly number[] | null, dimCount: number, sanityCheck: boolean): Torus {
  const count = declared?.length ?? dimCount;
  const coords = names.map((name) => coordsOf(name, count));
  const dims = declared ?? Array.from({ length: count }, (_, d) => Math.max(0, ...coords.map((c) => (c ? c[d]! + 1 : 0))));
  if (sanityCheck) {
    const seen = new Map<string, string>();
    names.forEach((name, i) => {
      const c = coords[i];
      if (!c) throw new Error(`node ${name} has no coordinates (its name must end in ${count} characters 0-9/A-Z)`);
      if (c.some((v, d) => v >= dims[d]!)) throw new Error(`node ${name} coordinates ${c.join(',')} are outside the system's dimensions ${dims.join('x')}`);
      const key = c.join(',');
      if (seen.has(key)) throw new Error(`nodes ${seen.get(key)} and ${name} have the same coordinates ${key}`);
      seen.set(key, name);
    });
  }
  return { dims, coords };
}

/** A node's blade: its coordinates without the last dimension (the node within the blade). */
export function bladeOf(coords: readonly number[] | null): string | null {
  return coords && coords.length > 1 ? coords.slice(0, -1).join('') : null;
}

/** The `dims` option: a list of positive integers, or null when absent. */
export function dimsOption(value: unknown): number[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((d) => Number.isInteger(d) && d > 0 && d <= 36)) {
    throw new Error(`dims must be a list of dimension sizes from 1 to 36, e.g. [4, 2, 2] (got ${JSON.stringify(value)})`);
  }
  return value as number[];
}
