// --export as sbatch 22.05 builds the job's environment (src/sbatch/sbatch.c,
// _env_merge_filter), which differs from srun's (tsrun/export-env.ts), each point observed:
// - ALL (any case, the default) is the whole environment; NONE is only the SLURM_* variables;
// - otherwise the comma list is applied in order: ALL adds the whole environment there,
//   NAME=value sets a value, NAME copies the variable if it is set; any other word, NONE
//   included, adds nothing ("NONE,ALL" is everything; "FOO=x,ALL" keeps the caller's FOO;
//   "ALL,FOO=x" gives x); then every SLURM_* variable is added over the top;
// - commas inside quotes do not split, and the quotes stay (FOO="a,b" is `"a,b"`).
import { envArrayFromObject, envArrayMerge, type EnvArray } from '../../core/env-array.js';

export function batchEnvironment(spec: string | undefined, env: NodeJS.ProcessEnv): EnvArray {
  const all = envArrayFromObject(env);
  const slurm = all.filter((entry) => entry.startsWith('SLURM_'));
  if (spec === undefined || spec.toUpperCase() === 'ALL') return all;
  if (spec.toUpperCase() === 'NONE') return slurm;
  const result: EnvArray = [];
  for (const word of quotedWords(spec)) {
    if (word.toUpperCase() === 'ALL') envArrayMerge(result, all);
    else if (word.includes('=')) envArrayMerge(result, [word]);
    else if (env[word] !== undefined) envArrayMerge(result, [`${word}=${env[word]}`]);
  }
  envArrayMerge(result, slurm);
  return result;
}

// find_quote_token(): split at commas outside "..." and '...', keeping the quotes.
function quotedWords(spec: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const c of spec) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ',') {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    word += c;
  }
  if (word !== '') words.push(word);
  return words;
}
