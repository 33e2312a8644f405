// --export as srun reads it: ALL (the default) passes tsrun's whole environment; NONE passes
// only the SLURM_* variables; a list passes the named variables (NAME or NAME=value) and the
// SLURM_* ones, plus everything when it contains ALL.
import { envArrayFromObject, envArrayOverwrite } from '../../core/env-array.js';
import { UserError } from '../../core/errors.js';

export function exportedEnv(spec: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const words = (spec ?? 'ALL').split(',').map((w) => w.trim()).filter((w) => w !== '');
  const all = words.some((w) => w.toUpperCase() === 'ALL');
  const none = words.some((w) => w.toUpperCase() === 'NONE');
  if (all && none) throw new UserError('--export: ALL and NONE cannot be combined');
  const base = all
    ? envArrayFromObject(env)
    : envArrayFromObject(Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('SLURM_'))));
  for (const word of words) {
    const upper = word.toUpperCase();
    if (upper === 'ALL' || upper === 'NONE') continue;
    const eq = word.indexOf('=');
    if (eq === 0) throw new UserError(`--export: invalid variable "${word}"`);
    if (eq > 0) envArrayOverwrite(base, word.slice(0, eq), word.slice(eq + 1));
    else if (env[word] !== undefined) envArrayOverwrite(base, word, env[word]);
  }
  return base;
}
