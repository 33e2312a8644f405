// tscancel (scancel): cancel or signal jobs, named by id or chosen by filters.
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { TSCANCEL_OPTIONS, type TscancelOptions } from './options.js';

const examples = [
  'tscancel 42',
  'tscancel 42_3 42_7        # two tasks of array 42',
  'tscancel -u $USER -t PENDING',
  'tscancel -n nightly -p debug',
  'tscancel -s USR1 --batch 42',
];

const texts: CommandTexts = {
  summary: 'Cancel or signal jobs (like scancel).',
  synopsis: '[OPTIONS] [job_id[_array_id][.step_id]]',
  examples,
  descriptionColumn: 34,
};

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSCANCEL_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSCANCEL_OPTIONS, texts));
    return 0;
  }
  const { cancelJobs } = await import('./cancel.js');
  return cancelJobs(parsed.operands, { verbose: 0, ...parsed.raw } as TscancelOptions, bin);
}
