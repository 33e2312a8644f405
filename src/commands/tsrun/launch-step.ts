// Running the step's tasks on every node through the step hosts (the embedded step host for
// emulated nodes, tsstepd daemons in daemon mode; tsrun starts no task itself), then folding
// their exits into srun's exit code and messages. Owns what happens while tasks run:
// --kill-on-bad-exit, the time limit, and tsrun's own signals.
import { ExitLines } from './exit-lines.js';
import type { RunAs } from '../../stepd/run-as.js';
import { primaryGidOf } from '../../os/users.js';
import { supplementaryGids } from '../../os/groups.js';
import { foldTaskExits, waitStatusOf, type TaskExit } from '../../core/exit-status.js';
import type { Logger } from '../../core/log.js';
import type { StepLayout } from '../../core/step-layout.js';
import type { NodeIoSink, NodeStep } from '../../stepd/launch-node.js';
import type { NodeAddress } from '../../protocol/node-messages.js';
import type { MessageAuth } from '../../net/message-auth.js';
import type { PluginSettings } from '../../plugin-host/create.js';
import { localAuth } from '../../net/local-auth.js';
import { daemonsLaunch, launchThroughHosts, type IoPort } from './node-hosts.js';
import { localHostLaunch, type StepHostLink } from './local-nodes.js';
import type { NodeLaunchSpec, StepFacts } from '../../stepd/launch-spec.js';
import type { StepAllocation } from './step-allocation.js';
import { readMultiProg } from './multi-prog.js';
import type { StepRequest } from './request.js';
import { forwardStdin, StepOutput } from './step-io.js';
import { IoRouting, type StdinPlan } from './io-routing.js';
import { watchStep } from './step-watch.js';
import { labelPrefix } from '../../core/label.js';
import { StepUsageBook } from './step-usage-book.js';
import type { StepUsage } from '../../protocol/step-usage.js';

export interface LaunchContext {
  req: StepRequest;
  alloc: StepAllocation;
  layout: StepLayout;
  facts: StepFacts;
  env: string[];
  /** The plugins the step hosts run the step with (the cluster's, and the step's mpi). */
  plugins: PluginSettings;
  log: Logger;
  /** Where the mpi client state's abort_step lands (nodes' aborts come through the sink). */
  abort?: StepAbort;
  /** Nodes served by tsstepd daemons (daemon mode); the others run on the local step host. */
  remote?: RemoteNodes;
  /** The state directory's step host, for the emulated nodes. */
  stepHost: StepHostLink;
  /** The step host was lost under the step (tsrun tells the controller: a node failure). */
  onHostLost?(): void;
  /** tsrun's loopback I/O port for the emulated nodes, when it was opened while the controller allocated. */
  localIoPort?: Promise<IoPort> | undefined;
  /** The step is its job's only one (tsrun made the job): the job's container ends with it. */
  endsJob: boolean;
  treeWidth: number;
  /** Slurm's KillWait for this cluster (config/kill-wait.ts). */
  killWaitSeconds: number;
}

export interface RemoteNodes {
  /** By step node id; null for a node emulated on the local step host. */
  addresses: Array<NodeAddress | null>;
  auth: MessageAuth;
  /** A node's daemon was lost mid-step (tsrun tells the controller). */
  onNodeLost(node: string): void;
}

/** The mpi plugin's abort_step before and while the step runs: held until it can end the step. */
export class StepAbort {
  private handler: ((message: string, error: boolean) => void) | undefined;
  private pending: [string, boolean] | undefined;

  request(message: string, error: boolean): void {
    if (this.handler) this.handler(message, error);
    else this.pending ??= [message, error];
  }

  attach(handler: (message: string, error: boolean) => void): void {
    this.handler = handler;
    if (this.pending !== undefined) handler(...this.pending);
  }
}

/** srun's exit code, and the wait status it reports as the job's end (srun's global_rc). */
export interface StepResult {
  exitCode: number;
  waitStatus: number;
  /** What the step's tasks used, when anything was gathered. */
  usage?: StepUsage;
}

export async function launchStep(ctx: LaunchContext): Promise<StepResult> {
  const { req, alloc, layout, facts, log } = ctx;
  const stepId = `${facts.jobId}.${facts.stepId}`;
  const io = new IoRouting(facts, layout, req.chdir ?? process.cwd(), { output: req.output, error: req.error, ...(req.openMode && { openMode: req.openMode }), onWriteError: (message) => log.error(message) });
  const stdinPlan = io.stdinPlan(req.input);
  io.openFiles();
  const output = new StepOutput({
    ntasks: facts.ntasks,
    label: req.label,
    unbuffered: req.unbuffered,
    destination: (stream, taskId) => io.destination(stream, taskId),
  });
  const running = new Set<number>(layout.nodeOfTask.keys());
  const exits: TaskExit[] = [];
  const nodes: NodeStep[] = [];
  // Signals asked for while nodes were still starting (a task may end, and -K fire, before
  // every node's launch returned; scancel while the tasks' prologs run): they go at once to the
  // nodes whose launch is under way, and to the others once they are known.
  const starting: NodeStep[] = [];
  const early: Array<{ signal: NodeJS.Signals; reached: Set<NodeStep> }> = [];
  const signalAll = (signal: NodeJS.Signals): void => {
    if (nodes.length > 0) return nodes.forEach((node) => node.signal(signal));
    starting.forEach((node) => node.signal(signal));
    early.push({ signal, reached: new Set(starting) });
  };
  const watch = watchStep({
    stepId,
    firstNode: layout.nodes[0]!,
    ...(req.label && { firstTaskLabel: labelPrefix(layout.tids[0]?.[0] ?? 0, facts.ntasks) }),
    timeLimitMinutes: alloc.timeLimit,
    killOnBadExit: req.killOnBadExit,
    quitOnInterrupt: req.quitOnInterrupt,
    ...(req.waitAfterFirst !== undefined && { waitAfterFirst: req.waitAfterFirst }),
    log,
    running: () => [...running],
    finished: () => exits,
    signalAll: (signal) => signalAll(signal),
    killWaitSeconds: ctx.killWaitSeconds,
  });
  const sink = output.sink(process.stderr);
  const exitLines = new ExitLines({
    ntasks: facts.ntasks,
    stepId,
    killOnBadExit: req.killOnBadExit,
    cancelled: () => watch.cancelledByUser,
    print: (lines) => printSrunLines(lines, log),
  });
  sink.taskExited = (exit) => {
    running.delete(exit.taskId);
    exits.push(exit);
    exitLines.arrived(exit);
    watch.taskExited(exit);
  };
  sink.abortStep = (message, error) => watch.abort(message, error);
  const usage = new StepUsageBook(alloc.sample?.bind(alloc));
  sink.usage = (figures, final) => usage.record(figures, final);
  ctx.abort?.attach((message, error) => watch.abort(message, error));
  alloc.control?.({ end: (cause, kill) => watch.end(cause, kill), signal: (signal) => signalAll(signal) });

  try {
    const argvs = req.multiProg ? readMultiProg(req.command[0]!, facts.ntasks) : undefined;
    const specs = layout.nodes.map((_, nodeId) => nodeSpec(ctx, nodeId, argvs, stdinPlan));
    const launched = await launchAll(ctx, specs, sink, (started) => starting.push(...started));
    for (const result of launched) if (result.status === 'fulfilled') nodes.push(result.value);
    for (const { signal, reached } of early) nodes.forEach((node) => reached.has(node) || node.signal(signal));
    // An abort that came while other nodes were still starting reaches their tasks now.
    if (watch.aborted) nodes.forEach((node) => node.signal('SIGKILL'));
    const failed = launched.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      // A node that could not start its share ends the whole step, as a failed launch does in Slurm.
      nodes.forEach((node) => node.signal('SIGKILL'));
      await Promise.all(nodes.map((node) => node.done));
      throw failed.reason;
    }
    const stopStdin = forwardStdin(
      nodes.flatMap((node) => layout.nodeOfTask.flatMap((_, taskId) => node.stdin(taskId) ?? [])),
      facts.pty !== undefined,
    );
    const finals = (await Promise.all(nodes.map((node) => node.done))).flat();
    stopStdin();
    // The nodes' final word on each task (an oom kill found at the end marks them), in arrival order.
    const byTask = new Map(finals.map((exit) => [exit.taskId, exit]));
    exits.splice(0, exits.length, ...exits.map((exit) => byTask.get(exit.taskId) ?? exit));
  } finally {
    exitLines.flush();
    usage.stop();
    watch.stop();
    output.flush();
    await io.close();
  }
  const folded = foldTaskExits(exits, {
    stepId,
    killOnBadExit: req.killOnBadExit,
    cancelled: watch.cancelledByUser,
    aborted: watch.aborted || watch.ended,
    reported: exitLines.reported,
    terminatingSent: exitLines.terminatingSent,
  });
  printSrunLines(folded.messages, log);
  const used = usage.current();
  return { exitCode: folded.exitCode, waitStatus: waitStatusOf(exits), ...(used && { usage: used }) };
}

/** srun's own lines: "error: ..." ones through error(), the rest ("Force Terminated ...") as info. */
function printSrunLines(lines: readonly string[], log: Logger): void {
  for (const line of lines) {
    if (line.startsWith('error: ')) log.error(line.slice('error: '.length));
    else log.info(line);
  }
}

/** Every node's share: through the daemons for the nodes they serve, on the local step host for the rest. */
async function launchAll(ctx: LaunchContext, specs: NodeLaunchSpec[], sink: NodeIoSink, onNodes: (nodes: NodeStep[]) => void): Promise<Array<PromiseSettledResult<NodeStep>>> {
  const remote = ctx.remote;
  const served = specs.filter((_, i) => remote?.addresses[i]);
  const local = specs.filter((_, i) => !remote?.addresses[i]);
  const common = { plugins: ctx.plugins, endsJob: ctx.endsJob, treeWidth: ctx.treeWidth, sink, onNodes };
  const [remoteResults, localResults] = await Promise.all([
    served.length > 0
      ? launchThroughHosts({
          ...common,
          ...daemonsLaunch(served.map((s) => remote!.addresses[s.nodeId]!), remote!.auth, ctx.treeWidth),
          specs: served,
          auth: remote!.auth,
          onNodeLost: remote!.onNodeLost,
        })
      : Promise.resolve([]),
    local.length > 0
      ? launchThroughHosts({
          ...common,
          ...localHostLaunch(ctx.stepHost, local.map((s) => ctx.layout.nodes[s.nodeId]!), ctx.localIoPort),
          specs: local,
          auth: localAuth,
          // The host is lost with every emulated node: the step ends as on a node failure.
          onNodeLost: (node) => (ctx.log.verbose(`node ${node} lost with the step host`), ctx.onHostLost?.()),
        })
      : Promise.resolve([]),
  ]);
  const byNode = new Map<number, PromiseSettledResult<NodeStep>>();
  served.forEach((spec, i) => byNode.set(spec.nodeId, remoteResults[i]!));
  local.forEach((spec, i) => byNode.set(spec.nodeId, localResults[i]!));
  return specs.map((spec) => byNode.get(spec.nodeId)!);
}

function nodeSpec(ctx: LaunchContext, nodeId: number, argvs: string[][] | undefined, stdinPlan: StdinPlan): NodeLaunchSpec {
  const { req, alloc, layout, facts, env } = ctx;
  const name = layout.nodes[nodeId]!;
  const allocIndex = alloc.nodeNames.indexOf(name);
  const tids = layout.tids[nodeId] ?? [];
  return {
    step: facts,
    nodeId,
    cpusOnNode: alloc.cpusPerNode[allocIndex] ?? 1,
    gpus: alloc.gpusPerNode[allocIndex] ?? [],
    argv: argvs ? tids.map((t) => argvs[t]!) : [req.command],
    cwd: req.chdir ?? process.cwd(),
    env,
    stdin: typeof stdinPlan === 'object' ? { files: tids.map((t) => stdinPlan.files[t]!) } : stdinPlan,
    killWaitSeconds: ctx.killWaitSeconds,
    memLimitMb: stepMemory(req, alloc.cpusPerNode[allocIndex] ?? 1),
    ...(taskOwner(req) && { runAs: taskOwner(req)! }),
  };
}

/** --uid/--gid: the tasks run as that user and group, with the user's groups (a root tsrun). */
function taskOwner(req: LaunchContext['req']): RunAs | undefined {
  if (!req.runAs || process.getuid?.() !== 0 || req.runAs.uid === 0) return undefined;
  const { uid, gid, name } = req.runAs;
  const primary = primaryGidOf(name);
  const groups = [...new Set([gid, ...(primary === undefined ? [] : supplementaryGids(name, primary))])];
  return { uid, gid, groups, name };
}

/** The step's memory on a node in MB: --mem, else --mem-per-cpu × the CPUs there; 0 when neither. */
function stepMemory(req: LaunchContext['req'], cpusOnNode: number): number {
  return req.memPerNode ?? (req.memPerCpu ?? 0) * cpusOnNode;
}
