// tsbatch (sbatch): submit a batch script. This file is the command's face (help, examples,
// how errors look); request.ts turns argv, environment and script into the job; submit.ts
// sends it.
import { printDefinedOptions } from '../../cli/slurm-opt/defined-options.js';
import { GetoptError } from '../../cli/slurm-opt/getopt.js';
import { infoText } from '../../cli/slurm-opt/job-cli.js';
import { usageError } from '../../cli/slurm-opt/usage-error.js';
import { TimeSpecError } from '../../core/begin-time.js';
import { UserError, UserErrorReport } from '../../core/errors.js';
import { FatalError } from './fatal.js';
import { tsbatchSpecs } from './options.js';
import { parseCommandLine, parseTsbatchArgs } from './request.js';

const examples = [
  'tsbatch job.sh                           # options from the #SBATCH lines of job.sh',
  "tsbatch -N2 -n8 -t 10 --wrap='tsrun hostname'",
  'tsbatch --array=0-15%4 -o out-%A_%a.txt task.sh',
  'tsbatch -d afterok:12:13 --parsable collect.sh',
  'tsbatch --begin=now+1hour --export=NONE,DATA=/tmp/in job.sh',
  'tsbatch -W job.sh; echo "job exited $?"',
];

export async function run(argv: string[], bin: string): Promise<number> {
  try {
    const info = parseCommandLine(argv, bin).info;
    if (info) {
      const ts = { tsUsage: `Usage: ${bin} [options] [script [args...]]`, examples };
      process.stdout.write(infoText(info, 'sbatch', bin, tsbatchSpecs(bin), ts));
      return 0;
    }
    const parsed = await parseTsbatchArgs(argv, { env: process.env, cwd: process.cwd(), stdin: readStdin }, bin);
    if (parsed.verbose > 0 && !parsed.quiet) {
      printDefinedOptions(bin, parsed.given);
    }
    const { submitBatch } = await import('./submit.js');
    return await submitBatch(parsed, { bin });
  } catch (error) {
    throw inSbatchWords(error, bin);
  }
}

// The lines sbatch prints without "error:": getopt's (and its hint), parse_time()'s own line
// before "Invalid --begin specification", and fatal() lines.
function inSbatchWords(error: unknown, bin: string): unknown {
  if (!(error instanceof UserError)) return error;
  const { exitCode, code } = error;
  if (error instanceof GetoptError) return usageError(bin, error);
  if (error.cause instanceof TimeSpecError) return new UserErrorReport([{ plain: error.cause.message }, { error: error.message }], { exitCode, code });
  if (error instanceof FatalError) return new UserError(`fatal: ${error.message}`, { exitCode, code });
  return error;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
