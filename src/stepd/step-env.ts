// The StepEnv handed to mpi hooks: Slurm's `char ***env` as an object over an env array,
// so the hook's edits land in the array the host then uses.
import { envArrayAppend, envArrayOverwrite, getenvp, unsetenvp } from '../core/env-array.js';
import type { StepEnv } from '../plugin-api/mpi.js';

export function stepEnvOver(env: string[]): StepEnv {
  return {
    get: (name) => getenvp(env, name),
    set: (name, value) => {
      envArrayOverwrite(env, name, value);
    },
    append: (name, value) => {
      envArrayAppend(env, name, value);
    },
    unset: (name) => unsetenvp(env, name),
    entries: () => [...env],
  };
}
