// Who may take back, watch or end tsrun's job over TCP (where the credential names the sender):
// its owner, or an administrator (root, or the user the controller runs as); anyone else is
// refused as slurmctld refuses them, before the job is touched. On the Unix socket (no identity)
// the peer is the controller's own user. The controller's user is made an ordinary uid here
// (the tests may run as root), through process.getuid.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interactiveHandlers, type InteractiveJobs } from '../../../src/ctld/interactive-jobs.js';
import type { RpcConnection } from '../../../src/net/rpc-server.js';

const OWNER = 5001;
const SLURM_USER = 5002;
const OTHER = 5003;

function handlersOverJob() {
  const touched: string[] = [];
  const jobs = {
    job: (id: number) => (id === 7 ? { record: { job_id: 7, user_id: OWNER } } : undefined),
    attach: async () => (touched.push('attach'), { jobId: 7 }),
    watch: async () => (touched.push('watch'), {}),
    complete: async () => void touched.push('complete'),
  } as unknown as InteractiveJobs;
  return { handlers: interactiveHandlers(jobs), touched };
}

const from = (uid: number | undefined): RpcConnection =>
  ({ onClose: () => {}, peer: '10.0.0.2', ...(uid !== undefined && { identity: { uid, gid: uid, host: 'h' } }) }) as unknown as RpcConnection;

describe("another user's interactive job", () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses attach, watch and complete from a user who neither owns it nor administers, touching nothing', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(SLURM_USER);
    const { handlers, touched } = handlersOverJob();
    await expect(handlers.attach({ jobId: 7, pid: 1 } as never, from(OTHER))).rejects.toThrow('Access/permission denied');
    await expect(handlers.watch({ jobId: 7 } as never, from(OTHER))).rejects.toThrow('Access/permission denied');
    await expect(handlers.complete({ jobId: 7, status: 0 } as never, from(OTHER))).rejects.toThrow('Invalid user id');
    expect(touched).toEqual([]);
  });

  it('lets the owner, root, the controller\'s user and the Unix socket\'s peer through', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(SLURM_USER);
    const { handlers, touched } = handlersOverJob();
    for (const uid of [OWNER, 0, SLURM_USER, undefined]) {
      await handlers.attach({ jobId: 7, pid: 1 } as never, from(uid));
      await handlers.watch({ jobId: 7 } as never, from(uid));
      await handlers.complete({ jobId: 7, status: 0 } as never, from(uid));
    }
    expect(touched).toHaveLength(12);
  });
});
