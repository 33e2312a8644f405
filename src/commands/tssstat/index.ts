// tssstat (sstat): what the running steps of a job use, live from the controller's latest
// samples (JobAcctGatherFrequency), in sstat 22.05's fields and layout.
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { UserError } from '../../core/errors.js';
import { TSSSTAT_OPTIONS } from './options.js';
import { DEFAULT_FIELDS, helpFormat, PID_FIELDS } from './fields.js';
import { parseFormat, parseStepIds } from './request.js';

const examples = [
  'tssstat -j 12                        # the lowest numbered running step of job 12',
  'tssstat -a -j 12 -o JobID,MaxRSS,AveCPU',
  'tssstat -j 12.batch -P -n -o MaxRSS  # for a script',
  'tssstat -j 12.0 --json',
  'tssstat -e                           # the fields -o takes',
];

const usage = (): string => 'Usage: sstat [options] -j <job(.stepid)>\n\tUse --help for help\n';

const texts: CommandTexts = { summary: 'Show what running job steps use (like sstat).', synopsis: '[OPTIONS] -j JOB[.STEP]', usage, examples, descriptionColumn: 30 };

interface Options {
  allsteps?: boolean;
  helpformat?: boolean;
  pidformat?: boolean;
  jobs?: string;
  json?: boolean;
  noheader?: boolean;
  noconvert?: boolean;
  format?: string;
  parsable?: boolean;
  parsable2?: boolean;
  cluster?: string;
}

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSSSTAT_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSSSTAT_OPTIONS, texts));
    return 0;
  }
  const options = parsed.raw as Options;
  if (options.helpformat) {
    process.stdout.write(helpFormat());
    return 0;
  }
  // sstat takes the job as an operand too (`sstat 12`), as its getopt leaves it.
  const jobs = options.jobs ?? (parsed.operands.length > 0 ? parsed.operands.join(',') : undefined);
  if (jobs === undefined) throw new UserError("You didn't give me any jobs to stat.");
  const ids = parseStepIds(jobs);
  const fields = parseFormat(options.format ?? (options.pidformat ? PID_FIELDS : DEFAULT_FIELDS));
  const [{ loadCluster }, { resolveStateDir }, { reportSteps }] = await Promise.all([
    import('../../config/load.js'),
    import('../../config/state-dir.js'),
    import('./report.js'),
  ]);
  const config = await loadCluster({ file: options.cluster });
  return reportSteps({
    bin,
    config,
    stateDir: resolveStateDir(config),
    ids,
    fields,
    allSteps: options.allsteps === true,
    header: options.noheader !== true,
    json: options.json === true,
    noconvert: options.noconvert === true,
    parsable: options.parsable2 ? 'no-ending' : options.parsable ? 'ending' : undefined,
  });
}
