// Who may act on a step (scancel N.S): its job's owner, or an administrator as
// administrators.ts has it (root, or the user the controller runs as: SlurmUser), as the rest
// of the controller decides; anyone else gets Access/permission denied. The controller's user
// is made an ordinary uid here (the tests may run as root), through process.getuid.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StepRegistry } from '../../../src/ctld/step-registry.js';
import type { StepStart } from '../../../src/protocol/step-messages.js';
import { JOB_RUNNING } from '../../../src/plugin-api/records.js';
import type { Controller } from '../../../src/ctld/controller.js';
import type { RpcConnection } from '../../../src/net/rpc-server.js';

const OWNER = 5001;
const SLURM_USER = 5002;
const OTHER = 5003;

function registryWithStep(): StepRegistry {
  const job = { record: { job_id: 7, user_id: OWNER, job_state: JOB_RUNNING, node_bitmap: undefined, job_resrcs: undefined } };
  const ctl = {
    jobs: new Map([[7, job]]),
    onChange: () => () => {},
    onJobEnding: () => () => {},
    table: { bitmapFromHostlist: () => ({}), emptyBitmap: () => ({}) },
    select: { finishStep: async () => 0 },
    log: { error: () => {} },
  } as unknown as Controller;
  const registry = new StepRegistry(ctl);
  const connection = { onClose: () => {} } as unknown as RpcConnection;
  const start = { jobId: 7, stepId: 0, name: 'sleep', ntasks: 1, nodes: 'node1', nodeCount: 1, cpus: 1, timeLimit: 0, dist: 'Cyclic', host: 'h', pid: 1 } as unknown as StepStart;
  void registry.start(start, connection);
  return registry;
}

describe('acting on another user\'s step', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is allowed to the controller\'s own user (SlurmUser) and to root, refused to others', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(SLURM_USER);
    const registry = registryWithStep();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(() => registry.order('7.0', OTHER, 10)).toThrow('Access/permission denied');
    expect(() => registry.order('7.0', SLURM_USER, 10)).not.toThrow();
    expect(() => registry.order('7.0', 0, 10)).not.toThrow();
    expect(() => registry.order('7.0', OWNER, 10)).not.toThrow();
  });
});
