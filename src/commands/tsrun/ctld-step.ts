// A step of an enclosing job made known to the running controller (srun's step create in
// slurmctld): registered over a connection held while the step runs, so `tscontrol show
// steps` and `tsqueue -s` list it and `tscancel N.S` reaches it; its end is reported, and a
// lost connection ends it on the controller's side. A controller that does not answer or does
// not know the job leaves the step to run unregistered, as before.
import { constants } from 'node:os';
import { CtldClient, type CtldTarget } from '../../client/ctld-client.js';
import type { StepOrder, StepStart } from '../../ctld/step-registry.js';
import type { StepAllocation, StepControl } from './step-allocation.js';

export type RegisteredStep = Pick<StepAllocation, 'control' | 'release'>;

export async function registerStep(target: CtldTarget, start: StepStart): Promise<RegisteredStep | undefined> {
  let client: CtldClient;
  try {
    client = await CtldClient.open(target);
  } catch {
    return undefined;
  }
  try {
    await client.call('step-start', start);
  } catch {
    client.close();
    return undefined;
  }
  const { jobId, stepId } = start;
  let control: StepControl | undefined;
  const early: StepOrder[] = [];
  const carryOut = (order: StepOrder): void => {
    if (!control) return void early.push(order);
    // scancel N.S kills the step at once (SIGKILL), with slurmstepd's and srun's lines.
    if (order.cancel) control.end('CANCELLED', true);
    else if (order.signal !== undefined) control.signal(signalName(order.signal));
  };
  void (async () => {
    for (;;) {
      const order = await client.call<StepOrder>('step-watch', { jobId, stepId }).catch(() => undefined);
      if (order === undefined || (!order.cancel && order.signal === undefined)) return;
      carryOut(order);
    }
  })();
  return {
    control: (handlers) => {
      control = handlers;
      early.splice(0).forEach(carryOut);
    },
    release: async (waitStatus) => {
      await client.call('step-end', { jobId, stepId, exitStatus: waitStatus }).catch(() => {});
      client.close();
    },
  };
}

function signalName(signal: number): NodeJS.Signals {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return (entry?.[0] ?? 'SIGTERM') as NodeJS.Signals;
}
