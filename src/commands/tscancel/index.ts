// tscancel (scancel): cancel or signal jobs, named by id or chosen by filters.
import { Option } from 'commander';
import { createProgram, addCommonOptions } from '../../cli/program.js';
import type { TscancelOptions } from './options.js';

const examples = [
  'tscancel 42',
  'tscancel 42_3 42_7        # two tasks of array 42',
  'tscancel -u $USER -t PENDING',
  'tscancel -n nightly -p debug',
  'tscancel -s USR1 --batch 42',
];

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addCommonOptions(createProgram(bin, 'Cancel or signal jobs (like scancel).', examples))
    .argument('[job_id...]', 'jobs: N, N_M (an array task), N_[M-K]')
    .option('-u, --user <user>', 'only jobs of this user')
    .option('-n, --name <name>', 'only jobs with this name (also --jobname)')
    .addOption(new Option('--jobname <name>').hideHelp())
    .option('-p, --partition <partition>', 'only jobs in this partition')
    .option('-t, --state <state>', 'only jobs in this state: PENDING, RUNNING or SUSPENDED')
    .option('-w, --nodelist <nodes>', 'only jobs using these nodes')
    .option('-s, --signal <signal>', 'send this signal instead of cancelling (name or number)')
    .option('-b, --batch', 'with -s: signal the batch shell alone, not its children or the steps')
    .option('-f, --full', 'with -s: signal the batch shell, everything it started and the steps')
    .option('-Q, --quiet', 'no messages about jobs already ended')
    .action(async (ids: string[], options: TscancelOptions & { jobname?: string }) => {
      const { cancelJobs } = await import('./cancel.js');
      status = await cancelJobs(ids, { ...options, name: options.name ?? options.jobname }, bin);
    });
  await program.parseAsync(argv, { from: 'user' });
  return status;
}
