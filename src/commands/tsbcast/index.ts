// tsbcast (sbcast): copy a file to every node of a job, inside the job's container there.
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { TSBCAST_OPTIONS, type TsbcastOptions } from './options.js';
import { UserError } from '../../core/errors.js';

const examples = [
  'tsbcast ./input.dat /tmp/input.dat          # inside a job: to every node of it',
  'tsbcast -f -p ./app /tmp/app                # replace, keep mode and times',
  'tsbcast -j 42 ./input.dat /tmp/input.dat    # to the nodes of job 42',
];

const texts: CommandTexts = {
  summary: 'Copy a file to every node of a job (like sbcast).',
  synopsis: '[OPTIONS] SOURCE DEST',
  usage: (bin) => `Usage: ${bin} [--exclude] [-CfFjpvV] [--send-libs] SOURCE DEST\n`,
  examples,
  descriptionColumn: 24,
};

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSBCAST_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSBCAST_OPTIONS, texts));
    return 0;
  }
  const files = parsed.operands;
  // sbcast's own wording for a wrong number of names.
  if (files.length !== 2) throw new UserError(`Need two file names, have ${files.length} names`);
  const { broadcast } = await import('./broadcast.js');
  return broadcast(files[0]!, files[1]!, { verbose: 0, ...parsed.raw } as TsbcastOptions, bin);
}
