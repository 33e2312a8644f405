// Where the tasks' output goes and where their input comes from: tsrun's own stdout/stderr
// (line by line, with --label prefixes) by default, and tsrun's stdin to the tasks that read it.
import type { Writable } from 'node:stream';
import type { NodeIoSink } from '../../stepd/launch-node.js';
import { TaskLineWriter } from './line-writer.js';

export interface StepIoOptions {
  ntasks: number;
  label: boolean;
  unbuffered: boolean;
  stdout: Writable;
  stderr: Writable;
}

/** srun's --label prefix: the task id right-aligned to the width of the largest id. */
export function labelPrefix(taskId: number, ntasks: number): string {
  return `${String(taskId).padStart(String(Math.max(ntasks - 1, 0)).length)}: `;
}

export class StepOutput {
  private readonly out = new Map<number, TaskLineWriter>();
  private readonly err = new Map<number, TaskLineWriter>();

  constructor(private readonly options: StepIoOptions) {}

  /** The sink a node's step daemon writes into. */
  sink(daemonMessages: Writable): NodeIoSink {
    return {
      stdout: (taskId, chunk) => this.writer(this.out, this.options.stdout, taskId).write(chunk),
      stderr: (taskId, chunk) => this.writer(this.err, this.options.stderr, taskId).write(chunk),
      daemonError: (line) => daemonMessages.write(`${line}\n`),
    };
  }

  /** Passes on what is left of unfinished last lines, once every task has ended. */
  flush(): void {
    for (const writer of [...this.out.values(), ...this.err.values()]) writer.flush();
  }

  private writer(map: Map<number, TaskLineWriter>, stream: Writable, taskId: number): TaskLineWriter {
    let writer = map.get(taskId);
    if (!writer) {
      const prefix = this.options.label ? labelPrefix(taskId, this.options.ntasks) : '';
      writer = new TaskLineWriter(stream, prefix, this.options.unbuffered);
      map.set(taskId, writer);
    }
    return writer;
  }
}

/** Copies tsrun's stdin to every task that reads it; their stdin ends when tsrun's does. */
export function forwardStdin(targets: readonly Writable[]): () => void {
  if (targets.length === 0) return () => {};
  const stdin = process.stdin;
  const onData = (chunk: Buffer): void => {
    for (const target of targets) if (!target.destroyed) target.write(chunk);
  };
  const onEnd = (): void => {
    for (const target of targets) target.end();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  return () => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    // Without this a terminal stdin would keep tsrun alive after the step ended.
    stdin.destroy();
  };
}
