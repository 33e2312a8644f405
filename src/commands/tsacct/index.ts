// tsacct (sacct): how jobs ended, from the accounting store the controller writes in the
// state directory; read directly, so it answers with no controller running.
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { UserError } from '../../core/errors.js';
import { TSACCT_OPTIONS } from './options.js';
import type { TsacctOptions } from './params.js';

const examples = [
  'tsacct                               # my jobs since midnight',
  'tsacct -j 7                          # job 7 and its steps',
  'tsacct -X -S now-2hours -o JobID,State,Elapsed,ExitCode',
  'tsacct -a -s F,TO,OOM -S 2027-01-01 -E now',
  'tsacct -j 7 -P -n -o State           # "COMPLETED", for a script',
  'tsacct -j 7 -o JobID%20,MaxRSS,TotalCPU',
  'tsacct --json -j 7',
];

const usage = (bin: string): string => `Usage: ${bin} [options]
\tUse --help for help
`;

const texts: CommandTexts = { summary: 'Show how jobs ran and ended, from the accounting store (like sacct).', synopsis: '[OPTIONS]', usage, examples, descriptionColumn: 34 };

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSACCT_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSACCT_OPTIONS, texts));
    return 0;
  }
  const options = parsed.raw as TsacctOptions & { helpformat?: boolean };
  if (parsed.operands.length > 0) throw new UserError(`Unknown arguments: ${parsed.operands.join(' ')}`);
  if (options.helpformat) {
    const { fieldList } = await import('./print.js');
    process.stdout.write(fieldList());
    return 0;
  }
  const [{ loadCluster }, { resolveStateDir }, { tsacctParams }, report] = await Promise.all([
    import('../../config/load.js'),
    import('../../config/state-dir.js'),
    import('./params.js'),
    import('./report.js'),
  ]);
  const now = new Date();
  const params = tsacctParams(options, { now, euid: process.geteuid?.() ?? 0, formatEnv: process.env.SACCT_FORMAT });
  const config = await loadCluster({ file: options.cluster });
  const jobs = await report.readJobs(resolveStateDir(config), params);
  if (params.output !== 'table') {
    const { acctDocument } = await import('./data.js');
    process.stdout.write(await acctDocument(jobs, params.output === 'yaml', Math.floor(now.getTime() / 1000)));
    return 0;
  }
  process.stdout.write(report.tableText(jobs, params, Math.floor(now.getTime() / 1000)));
  return 0;
}
