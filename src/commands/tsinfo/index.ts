// tsinfo (sinfo): nodes and partitions, in sinfo's formats byte for byte.
import { printError } from '../../cli/error-line.js';
import { loadClusterInfo } from '../../cli/cluster-info.js';
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { TSINFO_OPTIONS } from './options.js';
import { tsinfoParams, type TsinfoOptions } from './params.js';
import { tsinfoReport } from './report.js';

const examples = [
  'tsinfo',
  'tsinfo -N -l',
  "tsinfo -o '%P %.6D %.6t %N'",
  'tsinfo -O partition,nodes,statecompact,nodelist',
  'tsinfo -R',
  'tsinfo -t drain,down -h',
  'tsinfo --json',
];

// sinfo's --usage (observed on 22.05), the second line under the first one's options.
const usage = (bin: string): string =>
  `Usage: ${bin} [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n${' '.repeat(bin.length + 8)}[-S fields] [-o format] [-O Format] [--federation] [--local]\n`;

const texts: CommandTexts = { summary: 'Show nodes and partitions (like sinfo).', synopsis: '[OPTIONS]', usage, examples, descriptionColumn: 29 };

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSINFO_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSINFO_OPTIONS, texts));
    return 0;
  }
  return list(parsed.raw as TsinfoOptions, bin);
}

async function list(options: TsinfoOptions, bin: string): Promise<number> {
  const params = tsinfoParams(options, process.env);
  // A reader that stops reading (`tsinfo -i 5 | head`) ends tsinfo quietly: see run-cli.ts.
  // Unknown fields are reported and the listing goes on, as in sinfo.
  for (const message of params.layout.invalid) printError(bin, message);
  for (;;) {
    const { info } = await loadClusterInfo(options.cluster);
    process.stdout.write(await tsinfoReport(info, params, new Date()));
    if (params.iterate === 0) return 0;
    process.stdout.write('\n');
    await new Promise((resolve) => setTimeout(resolve, params.iterate * 1000));
  }
}
