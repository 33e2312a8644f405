// Where each task's stdout and stderr go and what its stdin is, from -o/-e/-i as srun reads
// them: the terminal (all), nothing (none), one task only (a number), or files named by a
// pattern — one file shared by the step, or one per task when the pattern names %t/%n/%N/%u.
// Without -e, stderr follows -o, as srun does.
import { createWriteStream, existsSync, openSync, type WriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { UserError, UserErrorList } from '../../core/errors.js';
import { slurm_strerror } from '../../core/errno.js';
import { classifyIoOption, expandIoPattern, type IoOption, type IoPatternContext } from '../../core/io-pattern.js';
import type { StepLayout } from '../../core/step-layout.js';
import type { StepFacts } from '../../stepd/launch-spec.js';
import { stdinIsNull } from './stdin-source.js';

export type StdinPlan = 'all' | 'none' | number | { files: string[] };

export class IoRouting {
  private readonly files = new Map<string, WriteStream>();
  /** The files a write to failed, reported already. */
  private readonly failed = new Set<string>();
  private readonly out: IoOption;
  private readonly err: IoOption;

  constructor(
    private readonly facts: StepFacts,
    private readonly layout: StepLayout,
    private readonly cwd: string,
    private readonly options: { output?: string; error?: string; openMode?: 'append' | 'truncate'; onWriteError: (message: string) => void },
  ) {
    this.out = classifyIoOption(options.output, facts.ntasks);
    this.err = options.error === undefined ? this.out : classifyIoOption(options.error, facts.ntasks);
  }

  /** Where task `taskId` writes stdout (`out`) or stderr (`err`); null: thrown away. */
  destination(stream: 'out' | 'err', taskId: number): Writable | null {
    const option = stream === 'out' ? this.out : this.err;
    const terminal = stream === 'out' ? process.stdout : process.stderr;
    switch (option.kind) {
      case 'all':
        return terminal;
      case 'none':
        return null;
      case 'task':
        return option.taskId === taskId ? terminal : null;
      case 'file':
        return this.file(this.expand(option.pattern, taskId));
    }
  }

  /**
   * Opens every output file before a task starts, as srun and slurmstepd do, so that output
   * is never lost silently. A file srun opens itself (one for the step) fails with srun's
   * `Could not open stdout file: ...`; a per-task file fails that task's launch with
   * slurmstepd's `task N launch failed: Slurmd could not connect IO` (observed on Slurm 22.05,
   * which then exits 0; tsrun exits 1, since the tasks never ran).
   */
  openFiles(): void {
    const failedTasks = new Set<number>();
    try {
      for (const [stream, option] of [['stdout', this.out], ['stderr', this.err]] as const) {
        if (option.kind !== 'file') continue;
        for (const taskId of this.layout.nodeOfTask.keys()) {
          try {
            this.file(this.expand(option.pattern, taskId));
          } catch (error) {
            if (!option.perTask) throw new UserError(`Could not open ${stream} file: ${openFailure(error)}`, { cause: error });
            failedTasks.add(taskId);
          }
        }
      }
      if (failedTasks.size > 0) {
        throw new UserErrorList([...failedTasks].sort((a, b) => a - b).map((t) => `task ${t} launch failed: Slurmd could not connect IO`));
      }
    } catch (error) {
      for (const file of this.files.values()) file.destroy();
      this.files.clear();
      throw error;
    }
  }

  /**
   * Closes the output files once everything is written to them. A write that failed is
   * reported here at the latest: the stream's 'error' event waits for its fd to close, and
   * tsrun exits as soon as this resolves. The stream's own error (`errored`), since end's
   * callback has only "destroyed" once the failed write has begun tearing the stream down.
   */
  async close(): Promise<void> {
    await Promise.all(
      [...this.files].map(
        ([name, f]) =>
          new Promise<void>((resolve) =>
            f.end((error?: Error | null) => {
              const failure = f.errored ?? error;
              if (failure) this.writeFailed(name, failure);
              resolve();
            }),
          ),
      ),
    );
  }

  // Said once per file: its first failed write (what follows fails the same way).
  private writeFailed(name: string, error: Error): void {
    if (this.failed.has(name)) return;
    this.failed.add(name);
    this.options.onWriteError(`${name}: ${error.message}`);
  }

  private file(name: string): WriteStream {
    let stream = this.files.get(name);
    if (!stream) {
      // Opened now (openFiles), so a file that cannot be opened is known before tasks start;
      // --open-mode=append adds to what the file holds, truncate (the default) starts it anew.
      stream = createWriteStream(name, { fd: openSync(name, this.options.openMode === 'append' ? 'a' : 'w') });
      // An unwritable output file is the user's problem to see, not a crash: reported while the
      // step goes on, so printed here, not thrown to the boundary.
      stream.on('error', (error) => this.writeFailed(name, error));
      this.files.set(name, stream);
    }
    return stream;
  }

  private expand(pattern: string, taskId: number): string {
    const nodeId = this.layout.nodeOfTask[taskId] ?? 0;
    const ctx: IoPatternContext = {
      jobId: this.facts.jobId,
      stepId: this.facts.stepId,
      taskId,
      nodeId,
      nodeName: this.layout.nodes[nodeId],
      userName: os.userInfo().username,
      jobName: process.env.SLURM_JOB_NAME ?? this.facts.jobName,
    };
    return path.resolve(this.cwd, expandIoPattern(pattern, ctx));
  }

  /** -i: which tasks read tsrun's stdin, or the file each task reads (checked before launch). */
  stdinPlan(input: string | undefined): StdinPlan {
    const option = classifyIoOption(input, this.facts.ntasks);
    if (option.kind === 'none' || (option.kind !== 'file' && stdinIsNull())) return 'none';
    if (option.kind === 'all') return option.kind;
    if (option.kind === 'task') return option.taskId;
    const files = this.layout.nodeOfTask.map((_, taskId) => this.expand(option.pattern, taskId));
    // srun checks before launching (observed: "Could not open stdin file: No such file or directory").
    if (files.some((f) => !existsSync(f))) throw new UserError('Could not open stdin file: No such file or directory');
    return { files };
  }
}

// open()'s errno as strerror words it ("No such file or directory", "Is a directory").
function openFailure(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  return typeof errno === 'number' ? slurm_strerror(Math.abs(errno)) : String(error);
}
