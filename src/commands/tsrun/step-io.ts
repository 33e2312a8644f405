// Where the tasks' output goes and where their input comes from: tsrun's own stdout/stderr
// (line by line, with --label prefixes) by default, and tsrun's stdin to the tasks that read it.
import type { Writable } from 'node:stream';
import type { NodeIoSink } from '../../stepd/launch-node.js';
import { labelPrefix, TaskOutputLabeller } from '../../core/label.js';
import { escapePtyInput, ptyResizeFrame } from './pty-input.js';

export interface StepIoOptions {
  ntasks: number;
  label: boolean;
  unbuffered: boolean;
  /** Where a task's stdout/stderr goes (see IoRouting); null: thrown away. */
  destination(stream: 'out' | 'err', taskId: number): Writable | null;
}

/** One task stream's labeller and where its output goes. */
class TaskStream {
  constructor(
    private readonly labeller: TaskOutputLabeller,
    private readonly out: Writable | null,
  ) {}

  write(chunk: Buffer): void {
    if (!this.out) return;
    const data = this.labeller.write(chunk);
    if (data.length > 0) this.out.write(data);
  }

  flush(): void {
    if (!this.out) return;
    const data = this.labeller.end();
    if (data.length > 0) this.out.write(data);
  }
}

export class StepOutput {
  private readonly out = new Map<number, TaskStream>();
  private readonly err = new Map<number, TaskStream>();

  constructor(private readonly options: StepIoOptions) {}

  /** The sink a node's step daemon writes into. */
  sink(daemonMessages: Writable): NodeIoSink {
    return {
      stdout: (taskId, chunk) => this.writer(this.out, 'out', taskId).write(chunk),
      stderr: (taskId, chunk) => this.writer(this.err, 'err', taskId).write(chunk),
      // With -l, a line printed for a task is labelled with it, as srun labels it.
      daemonError: (line, taskId) => daemonMessages.write(`${this.options.label && taskId !== undefined ? labelPrefix(taskId, this.options.ntasks) : ''}${line}\n`),
    };
  }

  /** Passes on what is left of unfinished last lines, once every task has ended. */
  flush(): void {
    for (const writer of [...this.out.values(), ...this.err.values()]) writer.flush();
  }

  private writer(map: Map<number, TaskStream>, stream: 'out' | 'err', taskId: number): TaskStream {
    let writer = map.get(taskId);
    if (!writer) {
      const prefix = this.options.label ? labelPrefix(taskId, this.options.ntasks) : '';
      const labeller = new TaskOutputLabeller(prefix, this.options.unbuffered);
      writer = new TaskStream(labeller, this.options.destination(stream, taskId));
      map.set(taskId, writer);
    }
    return writer;
  }
}

/**
 * Copies tsrun's stdin to every task that reads it; their stdin ends when tsrun's does. `pty`:
 * the one target is a --pty task's helper, which also hears of window size changes.
 */
export function forwardStdin(targets: readonly Writable[], pty = false): () => void {
  if (targets.length === 0) return () => {};
  const stdin = process.stdin;
  const send = (chunk: Buffer): void => {
    for (const target of targets) if (!target.destroyed) target.write(chunk);
  };
  const onData = (chunk: Buffer): void => send(pty ? escapePtyInput(chunk) : chunk);
  const onResize = (): void => send(ptyResizeFrame(process.stdout.rows || 24, process.stdout.columns || 80));
  if (pty) process.on('SIGWINCH', onResize);
  const onEnd = (): void => {
    for (const target of targets) target.end();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  return () => {
    process.off('SIGWINCH', onResize);
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    // Without this a terminal stdin would keep tsrun alive after the step ended.
    stdin.destroy();
  };
}
