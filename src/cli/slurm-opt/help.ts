// --help and --usage of a Slurm-style command, from its option table: each option in
// Slurm's synopsis form (`  -N, --nodes=N               ...`, `      --nice[=value]`), under
// the section headings srun and sbatch print; the description starts at column 30 and
// wraps under itself, as theirs does.
import type { HelpSection, OptionSpec } from './spec.js';

const SECTION_TITLES: Readonly<Record<HelpSection, string>> = {
  run: 'Parallel run options:',
  constraint: 'Constraint options:',
  resources: 'Consumable resources related options:',
  affinity: 'Affinity/Multi-core options: (when the task/affinity plugin is enabled)',
  gpu: 'GPU scheduling options:',
  help: 'Help options:',
  other: 'Other options:',
  tslurm: 'tslurm options:',
};

const DESCRIPTION_COLUMN = 30;
const WIDTH = 80;

/** `-N, --nodes=N`, `    --nice[=value]`, `-K, --kill-on-bad-exit[=0|1]`. */
export function synopsis(spec: OptionSpec): string {
  const letter = spec.short ? `-${spec.short}, ` : '    ';
  const meta = spec.meta ?? '';
  const arg = spec.arg === 'required' && meta !== '' ? `=${meta}` : spec.arg === 'optional' && meta !== '' ? `[=${meta}]` : '';
  return `${letter}--${spec.long}${arg}`;
}

export interface HelpText {
  /** The first line: `Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] ...`. */
  usageLine: string;
  /** Lines printed after the options (examples under the ts names). */
  epilogue?: readonly string[];
}

export function renderHelp(specs: readonly OptionSpec[], text: HelpText): string {
  const lines = [text.usageLine, ''];
  const sections = [...new Set(specs.filter((s) => !s.hidden).map((s) => s.section))];
  for (const section of sections) {
    lines.push(SECTION_TITLES[section]);
    // One option named twice with two meanings (srun's --exclusive) shows once.
    const shown = new Set<string>();
    for (const spec of specs) {
      if (spec.hidden || spec.section !== section || shown.has(spec.long)) continue;
      shown.add(spec.long);
      lines.push(...optionLines(spec));
    }
    lines.push('');
  }
  if (text.epilogue) lines.push(...text.epilogue);
  return `${lines.join('\n')}\n`;
}

function optionLines(spec: OptionSpec): string[] {
  const head = `  ${synopsis(spec)}`;
  const words = spec.help.split(' ');
  const out: string[] = [];
  let line = head.length < DESCRIPTION_COLUMN ? head.padEnd(DESCRIPTION_COLUMN) : `${head} `;
  let fresh = true;
  for (const word of words) {
    if (!fresh && line.length + 1 + word.length > WIDTH) {
      out.push(line);
      line = ' '.repeat(DESCRIPTION_COLUMN);
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
