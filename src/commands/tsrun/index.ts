// tsrun (srun): run a parallel job step on the cluster, in a new allocation or inside the
// one it is called from (a batch script, a tsrun --pty shell).
import { startJobCommand } from '../../cli/slurm-opt/job-cli.js';
import { printDefinedOptions } from '../../cli/slurm-opt/defined-options.js';
import { UserError } from '../../core/errors.js';
import { envValues, type RawTsrunOptions } from './options.js';
import { buildStepRequest } from './request.js';

const examples = [
  'tsrun -N2 -n4 -l hostname',
  'tsrun -n8 --mpi=pmi2 ./mpi_hello',
  'tsrun -n4 -m cyclic -o out-%j-%t.txt ./work.sh',
  'tsrun --cluster fixtures/clusters/gpu.yaml -p gpu --gpus=2 -n2 nvidia-smi',
  'tsrun --mpi=list',
];

/**
 * tsrun ends once its step has ended and the controller has its end, as srun does: the last
 * task's exit is then only milliseconds from the shell's prompt (Node's teardown was a few of
 * them), and a third-party mpi plugin's leftover timer cannot keep it up.
 */
export const exitWhenDone = true;

export async function run(argv: string[], bin: string): Promise<number> {
  const started = startJobCommand(argv, 'srun', bin, { tsUsage: `Usage: ${bin} [options] command [args...]`, examples });
  if (!started) return 0;
  const { parsed } = started;
  const raw: RawTsrunOptions = { ...envValues(process.env), ...parsed.raw };
  const verbose = Number(parsed.raw.verbose ?? 0);
  const command = parsed.operands;
  const request = buildStepRequest(raw, command);
  if (verbose > 0 && raw.quiet !== true) {
    printDefinedOptions(bin, parsed.options);
  }
  if (request.mpi === 'list') {
    const { listMpiTypes } = await import('./mpi-list.js');
    return listMpiTypes(raw.cluster);
  }
  if (command.length === 0) {
    // srun: "fatal: No command given to execute." and exit 1.
    throw new UserError('fatal: No command given to execute.');
  }
  const { runStep } = await import('./run-step.js');
  return runStep(request, { bin, cluster: raw.cluster, verbose, quiet: request.quiet });
}
