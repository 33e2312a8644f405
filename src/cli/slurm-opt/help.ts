// --help and --usage of a Slurm-style command, from its option table: each option in
// Slurm's synopsis form (`  -N, --nodes=N               ...`, `      --nice[=value]`), under
// the section headings srun and sbatch print; the description starts at column 30 and
// wraps under itself, as theirs does.
import type { HelpSection, OptionSpec } from './spec.js';

const SECTION_TITLES: Readonly<Record<HelpSection, string>> = {
  main: '',
  run: 'Parallel run options:',
  constraint: 'Constraint options:',
  resources: 'Consumable resources related options:',
  affinity: 'Affinity/Multi-core options: (when the task/affinity plugin is enabled)',
  gpu: 'GPU scheduling options:',
  help: 'Help options:',
  other: 'Other options:',
  tslurm: 'tslurm options:',
};

/** srun's, sbatch's and salloc's description column; squeue's is 34, sinfo's 29, ... */
const DESCRIPTION_COLUMN = 30;
const WIDTH = 80;

/** `-N, --nodes=N`, `    --nice[=value]`, `-K, --kill-on-bad-exit[=0|1]`. */
export function synopsis(spec: OptionSpec): string {
  const letter = spec.short ? `-${spec.short}, ` : '    ';
  const meta = spec.meta ?? '';
  const arg = spec.arg === 'required' && meta !== '' ? `=${meta}` : spec.arg === 'optional' && meta !== '' ? `[=${meta}]` : '';
  if (spec.long === '') return `-${spec.short}`;
  return `${letter}--${spec.long}${arg}`;
}

export interface HelpText {
  /** The first line: `Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] ...`. */
  usageLine: string;
  /** A line under the usage line (what the command is, under the ts names). */
  summary?: string;
  /** Lines printed after the options (examples under the ts names). */
  epilogue?: readonly string[];
  /** Where descriptions start (default 30, srun's). */
  descriptionColumn?: number;
}

export function renderHelp(specs: readonly OptionSpec[], text: HelpText): string {
  const lines = [text.usageLine, ...(text.summary === undefined ? [] : ['', text.summary]), ''];
  const sections = [...new Set(specs.filter((s) => !s.hidden).map((s) => s.section))];
  for (const section of sections) {
    if (SECTION_TITLES[section] !== '') lines.push(SECTION_TITLES[section]);
    // One option named twice with two meanings (srun's --exclusive) shows once.
    const shown = new Set<string>();
    for (const spec of specs) {
      if (spec.hidden || spec.section !== section || shown.has(spec.long)) continue;
      shown.add(spec.long);
      lines.push(...optionLines(spec, text.descriptionColumn ?? DESCRIPTION_COLUMN));
    }
    lines.push('');
  }
  if (text.epilogue) lines.push(...text.epilogue);
  return `${lines.join('\n')}\n`;
}

function optionLines(spec: OptionSpec, column: number): string[] {
  const head = `  ${synopsis(spec)}`;
  const words = spec.help.split(' ');
  const out: string[] = [];
  let line = head.length < column ? head.padEnd(column) : `${head} `;
  let fresh = true;
  for (const word of words) {
    if (!fresh && line.length + 1 + word.length > WIDTH) {
      out.push(line);
      line = ' '.repeat(column);
      fresh = true;
    }
    line += fresh ? word : ` ${word}`;
    fresh = false;
  }
  out.push(line.trimEnd());
  return out;
}

/** `Usage: srun [-N nnodes] [-n ntasks] ...`: the synopsis lines under the first one's start. */
export function renderUsage(bin: string, lines: readonly string[]): string {
  const head = `Usage: ${bin} `;
  const indent = ' '.repeat(head.length);
  return `${lines.map((line, k) => `${k === 0 ? head : indent}${line}`).join('\n')}\n`;
}
