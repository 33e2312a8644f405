// A step of an enclosing job made known to the running controller (srun's step create in
// slurmctld): registered over a connection held while the step runs, so `tscontrol show
// steps` and `tsqueue -s` list it and `tscancel N.S` reaches it; its end is reported, and a
// lost connection ends it on the controller's side; the end of its job ends the step. A controller that does not answer or does
// not know the job leaves the step to run unregistered, as before. The controller places the
// step among the job's others (--exact, --overlap): when they hold what it needs, srun's
// "step creation temporarily disabled" line, a wait, then "Step created"; a step the job can
// never hold is refused with srun's error.
import { constants } from 'node:os';
import { ControllerError, CtldClient, type CtldTarget } from '../../client/ctld-client.js';
import type { Logger } from '../../core/log.js';
import type { StepOrder } from '../../protocol/ctld-answers.js';
import type { StepStart } from '../../protocol/step-messages.js';
import type { StepGrant } from '../../protocol/step-messages.js';
import type { StepAllocation, StepControl } from './step-allocation.js';

export type RegisteredStep = Pick<StepAllocation, 'control' | 'release' | 'sample'> & { grant: StepGrant };

// The controller's refusals of a step that can never run; anything else leaves it unregistered.
const STEP_REFUSALS = new Set(['ESLURM_TOO_MANY_REQUESTED_CPUS', 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE', 'ESLURM_ALREADY_DONE']);

export async function registerStep(target: CtldTarget, start: StepStart, log: Logger): Promise<RegisteredStep | undefined> {
  let client: CtldClient;
  try {
    client = await CtldClient.open(target);
  } catch {
    return undefined;
  }
  let grant: StepGrant;
  try {
    grant = await client.call<StepGrant>('step-start', start);
    if (grant.busy) {
      log.info(`Job ${start.jobId} step creation temporarily disabled, retrying (Requested nodes are busy)`);
      grant = await client.call<StepGrant>('step-start', { ...start, wait: true });
      if (grant.busy) throw new Error('the controller gave up the step');
      log.info(`Step created for job ${start.jobId}`);
    }
  } catch (error) {
    client.close();
    if (error instanceof ControllerError && error.code !== undefined && STEP_REFUSALS.has(error.code)) throw error;
    return undefined;
  }
  const { jobId, stepId } = start;
  let control: StepControl | undefined;
  const early: StepOrder[] = [];
  const carryOut = (order: StepOrder): void => {
    if (!control) return void early.push(order);
    // scancel N.S kills the step at once (SIGKILL), with slurmstepd's and srun's lines.
    if (order.cancel) control.end('CANCELLED', true);
    // Its job ends (tscancel N, time limit, revoked allocation): SIGTERM, SIGKILL after KillWait.
    else if (order.end) control.end(order.end);
    else if (order.signal !== undefined) control.signal(signalName(order.signal));
  };
  void (async () => {
    for (;;) {
      const order = await client.call<StepOrder>('step-watch', { jobId, stepId }).catch(() => undefined);
      if (order === undefined || (!order.cancel && !order.end && order.signal === undefined)) return;
      carryOut(order);
    }
  })();
  return {
    grant,
    control: (handlers) => {
      control = handlers;
      early.splice(0).forEach(carryOut);
    },
    sample: (usage) => void client.call('step-usage', { jobId, stepId, usage }).catch(() => {}),
    release: async (waitStatus, usage) => {
      await client.call('step-end', { jobId, stepId, exitStatus: waitStatus, ...(usage && { usage }) }).catch(() => {});
      client.close();
    },
  };
}

function signalName(signal: number): NodeJS.Signals {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return (entry?.[0] ?? 'SIGTERM') as NodeJS.Signals;
}
