// Slurm's environment arrays (src/common/env.c): a list of "NAME=value" strings, the
// shape execve() takes. The writers change the array in place, as Slurm's `char ***`
// versions do, so one array can be handed down through the launch code and filled in.
import { UserError } from './errors.js';

/** "NAME=value" entries; a name appears at most once unless a caller pushed duplicates. */
export type EnvArray = string[];

/** env_array_create(): an empty environment. */
export function envArrayCreate(): EnvArray {
  return [];
}

/** env_array_overwrite(): set NAME, replacing an existing entry in its place. Returns 1, as Slurm. */
export function envArrayOverwrite(env: EnvArray, name: string, value: string): 1 {
  checkName(name);
  const at = indexOfName(env, name);
  if (at === -1) env.push(`${name}=${value}`);
  else env[at] = `${name}=${value}`;
  return 1;
}

/**
 * env_array_append(): set NAME only if it is not there yet. Returns 1 if it was added and
 * 0 if NAME already existed (Slurm's "error" return), so a user's value survives defaults.
 */
export function envArrayAppend(env: EnvArray, name: string, value: string): 0 | 1 {
  checkName(name);
  if (indexOfName(env, name) !== -1) return 0;
  env.push(`${name}=${value}`);
  return 1;
}

/** getenvp(): the value of the first NAME entry, or null. */
export function getenvp(env: readonly string[], name: string): string | null {
  const at = indexOfName(env, name);
  return at === -1 ? null : env[at]!.slice(name.length + 1);
}

/** unsetenvp(): remove every NAME entry (Slurm loops "in case `name' appears again"). */
export function unsetenvp(env: EnvArray, name: string): void {
  for (let at = indexOfName(env, name); at !== -1; at = indexOfName(env, name, at)) {
    env.splice(at, 1);
  }
}

/**
 * env_array_merge(): copy every entry of `src` into `dest`, overwriting. The name ends at
 * the first '='; entries with no '=' or an empty name are skipped, as Slurm's splitter does.
 */
export function envArrayMerge(dest: EnvArray, src: readonly string[]): void {
  for (const entry of src) {
    const eq = entry.indexOf('=');
    if (eq > 0) envArrayOverwrite(dest, entry.slice(0, eq), entry.slice(eq + 1));
  }
}

/** env_array_copy(): a merge into a new array, so duplicates collapse to the last value. */
export function envArrayCopy(src: readonly string[]): EnvArray {
  const copy = envArrayCreate();
  envArrayMerge(copy, src);
  return copy;
}

/** An env array from an object such as process.env; undefined values are left out. */
export function envArrayFromObject(vars: Readonly<Record<string, string | undefined>>): EnvArray {
  const env = envArrayCreate();
  for (const [name, value] of Object.entries(vars)) {
    if (value !== undefined) envArrayOverwrite(env, name, value);
  }
  return env;
}

/**
 * An object for child_process/execa `env` from an env array. The first entry of a name wins,
 * as getenv() in the child would see it. The object has no prototype, so a variable named
 * "__proto__" is kept as data.
 */
export function envArrayToObject(env: readonly string[]): Record<string, string> {
  const vars = Object.create(null) as Record<string, string>;
  for (const entry of env) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq);
    if (eq > 0 && !Object.hasOwn(vars, name)) vars[name] = entry.slice(eq + 1);
  }
  return vars;
}

// _find_name_in_env(): an exact match of the name up to the '='. "PATH" never matches
// "PATHX=..." and a name containing '=' never matches anything.
function indexOfName(env: readonly string[], name: string, from = 0): number {
  if (name === '' || name.includes('=')) return -1;
  for (let i = from; i < env.length; i += 1) {
    const entry = env[i]!;
    if (entry.length > name.length && entry[name.length] === '=' && entry.startsWith(name)) return i;
  }
  return -1;
}

function checkName(name: string): void {
  // Names reach here from --export=NAME=value; "A=B" as a name would write an entry
  // that reads back as A with a different value.
  if (name === '' || name.includes('=')) {
    throw new UserError(`invalid environment variable name "${name}"`);
  }
}
