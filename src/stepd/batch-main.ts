// The batch step daemon (slurmstepd for a job's batch step): started detached by tsctld with
// the job's directory, it runs the script in the job's containers with its output in files,
// ends it when the controller asks (SIGTERM after a kill request), and leaves the script's
// wait status in result.json. It outlives a controller that dies: the next one finds it
// still running, or finds its result.
import { runBatchStep } from './batch-step.js';

const jobDir = process.argv[2];
if (!jobDir) {
  process.stderr.write('batch step: no job directory given\n');
  process.exit(2);
}
runBatchStep(jobDir).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`batch step: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
