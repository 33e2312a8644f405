// tsbcast (sbcast): copy a file to every node of a job, inside the job's container there.
import { Option } from 'commander';
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { UserError } from '../../core/errors.js';
import type { TsbcastOptions } from './options.js';

const examples = [
  'tsbcast ./input.dat /tmp/input.dat          # inside a job: to every node of it',
  'tsbcast -f -p ./app /tmp/app                # replace, keep mode and times',
  'tsbcast -j 42 ./input.dat /tmp/input.dat    # to the nodes of job 42',
];

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addCommonOptions(createProgram(bin, 'Copy a file to every node of a job (like sbcast).', examples))
    .argument('[files...]', 'SOURCE DEST: the file here, and the absolute path to write on each node')
    .option('-f, --force', 'replace the destination file if it exists')
    .option('-p, --preserve', "keep the source's modes and times")
    .option('-j, --jobid <id>', 'the job (N, N.S or N+0), instead of $SLURM_JOB_ID')
    // sbcast's transfer tuning: accepted for compatibility, nothing to tune in a local copy.
    .addOption(new Option('-F, --fanout <num>', 'message fanout (accepted, no effect here)'))
    .addOption(new Option('-C, --compress [lib]', 'compress the transfer (accepted, no effect here)'))
    .addOption(new Option('-s, --size <num>', 'block size in bytes (accepted, no effect here)'))
    .addOption(new Option('-t, --timeout <secs>', 'message timeout (accepted, no effect here)'))
    .action(async (files: string[], options: TsbcastOptions) => {
      // sbcast's own wording for a wrong number of names.
      if (files.length !== 2) throw new UserError(`Need two file names, have ${files.length} names`);
      const { broadcast } = await import('./broadcast.js');
      status = await broadcast(files[0]!, files[1]!, options, bin);
    });
  await program.parseAsync(argv, { from: 'user' });
  return status;
}
