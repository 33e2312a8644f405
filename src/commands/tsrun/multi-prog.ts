// --multi-prog: the command is a configuration file giving each task its program, as srun(1)
// "MULTIPLE PROGRAM CONFIGURATION" describes: `<task ranks> <program> [args...]` per line,
// ranks like `0-3,5` or `*`, `%t` replaced by the task id and `%o` by its offset in the range.
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';

/** The argv of every task, indexed by global task id. */
export function readMultiProg(file: string, ntasks: number): string[][] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UserError(`Unable to open multi-prog file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (error as Error).message}`);
  }
  const argvs: (string[] | undefined)[] = new Array(ntasks).fill(undefined);
  for (const [n, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const words = line.split(/\s+/);
    if (words.length < 2) throw bad(file, n + 1, 'expected "<task ranks> <program> [arguments]"');
    for (const [offset, task] of ranks(words[0]!, ntasks, file, n + 1).entries()) {
      argvs[task] ??= words.slice(1).map((w) => w.replaceAll('%t', String(task)).replaceAll('%o', String(offset)));
    }
  }
  const missing = argvs.flatMap((argv, task) => (argv ? [] : [task]));
  if (missing.length > 0) throw new UserError(`${file}: no program given for task ${missing.join(',')}`);
  return argvs as string[][];
}

function ranks(spec: string, ntasks: number, file: string, line: number): number[] {
  if (spec === '*') return Array.from({ length: ntasks }, (_, i) => i);
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw bad(file, line, `invalid task rank "${part}"`);
    const low = Number(m[1]);
    const high = m[2] === undefined ? low : Number(m[2]);
    if (high < low || high >= ntasks) throw bad(file, line, `task rank "${part}" outside 0-${ntasks - 1}`);
    for (let t = low; t <= high; t++) out.push(t);
  }
  return out;
}

function bad(file: string, line: number, what: string): UserError {
  return new UserError(`${file}:${line}: invalid --multi-prog line: ${what}`);
}
