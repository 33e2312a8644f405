// tsrun (srun): run a parallel job step on the cluster, in a new allocation or inside the
// one it is called from (a batch script, a tsrun --pty shell).
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { UserError } from '../../core/errors.js';
import { addTsrunOptions, type RawTsrunOptions } from './options.js';
import { buildStepRequest } from './request.js';

const examples = [
  'tsrun -N2 -n4 -l hostname',
  'tsrun -n8 --mpi=pmi2 ./mpi_hello',
  'tsrun -n4 -m cyclic -o out-%j-%t.txt ./work.sh',
  'tsrun --cluster fixtures/clusters/gpu.yaml --gpus=2 -n2 nvidia-smi',
  'tsrun --mpi=list',
];

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addTsrunOptions(
    addCommonOptions(createProgram(bin, 'Run a parallel job step (like srun).', examples)),
  )
    .argument('[command...]', 'the program to run, and its arguments')
    .passThroughOptions()
    .action(async (command: string[], raw: RawTsrunOptions) => {
      const request = buildStepRequest(raw, command);
      if (request.mpi === 'list') {
        const { listMpiTypes } = await import('./mpi-list.js');
        status = await listMpiTypes(raw.cluster);
        return;
      }
      if (command.length === 0) {
        // srun: "fatal: No command given to execute." and exit 1.
        throw new UserError('No command given to execute.');
      }
      const { runStep } = await import('./run-step.js');
      status = await runStep(request, { bin, cluster: raw.cluster, verbose: raw.verbose, quiet: request.quiet });
    });
  await program.parseAsync(normalizeKillOnBadExit(argv), { from: 'user' });
  return status;
}

/**
 * srun's -K takes an optional value only when attached (`-K0`, `--kill-on-bad-exit=1`), as
 * getopt does; commander would take the next word, the user's command, as the value.
 */
function normalizeKillOnBadExit(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, arg] of argv.entries()) {
    if (arg === '--' || (!arg.startsWith('-') && !isOptionValue(argv, i))) return [...out, ...argv.slice(i)];
    const attached = /^(?:-K|--kill-on-bad-exit=)(\d)$/.exec(arg);
    if (attached) out.push(`--kill-on-bad-exit=${attached[1]}`);
    else if (arg === '-K' || arg === '--kill-on-bad-exit') out.push('--kill-on-bad-exit=1');
    else out.push(arg);
  }
  return out;
}

const takesValue = /^(-[nNcpwxCJoeimtDG]|--(ntasks|nodes|cpus-per-task|ntasks-per-node|partition|nodelist|exclude|constraint|mem|mem-per-cpu|gres|gpus|distribution|time|job-name|output|error|input|export|chdir|mpi|cluster))$/;

function isOptionValue(argv: readonly string[], i: number): boolean {
  return i > 0 && takesValue.test(argv[i - 1]!);
}
