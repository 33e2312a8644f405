// srun prints a task's `error: node1: task 0: Exited with exit code 3` line when that task's
// exit reaches it, not when the step ends (observed on 22.05: `srun -n2 bash -c 'if [
// $SLURM_PROCID = 0 ]; then exit 3; fi; sleep 3'` prints it at once). slurmstepd sends the
// tasks it reaped together in one message per status, so tasks ending at about the same time
// share a line (`tasks 0-1`): exits are held for a moment and printed as one batch. Once the
// last task ended they wait for the step's end, after the step daemons' last lines, as srun's
// last lines come (observed with --slurmd-debug).
import { exitKey, foldTaskExits, type TaskExit } from '../../core/exit-status.js';

/** How long exits are gathered into one batch, as slurmstepd's one reaping pass would. */
const BATCH_MS = 250;
const TERMINATING = 'launch/slurm: _step_signal: Terminating StepId=';

export interface ExitLineOptions {
  ntasks: number;
  stepId: string;
  killOnBadExit: boolean;
  /** The user cancelled the step (srun then keeps quiet about signals); read when printing. */
  cancelled(): boolean;
  /** srun's own lines, without the `srun: ` prefix. */
  print(lines: readonly string[]): void;
}

export class ExitLines {
  /** Task id → the status its line was printed with. */
  readonly reported = new Map<number, string>();
  terminatingSent = false;
  oomPrinted = false;
  private batch: TaskExit[] = [];
  private timer: NodeJS.Timeout | undefined;
  private arrivedCount = 0;

  constructor(private readonly options: ExitLineOptions) {}

  arrived(exit: TaskExit): void {
    this.arrivedCount++;
    this.batch.push(exit);
    if (this.arrivedCount >= this.options.ntasks) {
      clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Prints what is held now (the step is over: the rest is the final fold's). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    const { stepId, killOnBadExit } = this.options;
    // aborted: the step's "Force Terminated" line is the final fold's to print.
    const lines = foldTaskExits(batch, { stepId, killOnBadExit, cancelled: this.options.cancelled(), aborted: true, terminatingSent: this.terminatingSent, oomPrinted: this.oomPrinted }).messages;
    for (const exit of batch) this.reported.set(exit.taskId, exitKey(exit));
    if (lines.some((line) => line.startsWith(TERMINATING))) this.terminatingSent = true;
    if (batch.some((exit) => exit.outOfMemory)) this.oomPrinted = true;
    this.options.print(lines);
  }
}
