// scontrol show job's `AllocNode:Sid=` names the host and the session the job was submitted
// from (Slurm's alloc_node and alloc_sid), not anything of the command showing it. Each
// submitter runs as the leader of a new session (setsid), so its session id is its shell's pid.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { hostname } from 'node:os';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const ctl = testController({ TSLURM_CONF: fixture('clusters', 'one-node.yaml') });
afterAll(() => ctl.stop());
const bin = (name: string) => `${process.execPath} ${path.join(repoRoot, 'bin', `${name}.js`)}`;

/** Runs `command` in a new session; answers the session id and what the command printed. */
async function inNewSession(command: string): Promise<{ sid: string; out: string }> {
  const r = await execa('setsid', ['sh', '-c', `echo $$; exec ${command}`], { cwd: ctl.workDir, env: { ...ctl.env, NO_COLOR: '1' }, reject: false, timeout: 30_000 });
  expect(r.stderr).toBe('');
  const [sid, ...out] = String(r.stdout).trim().split('\n');
  return { sid: sid!, out: out.join('\n') };
}

describe('AllocNode:Sid=', () => {
  it('is the submitting host and session of a batch job and of a job tsrun created', async () => {
    const batch = await inNewSession(`${bin('tsbatch')} --parsable -H --wrap true`);
    expect(await ctl.jobField(batch.out.trim(), 'AllocNode:Sid')).toBe(`${hostname()}:${batch.sid}`);
    const step = await inNewSession(`${bin('tsrun')} sh -c 'echo $SLURM_JOB_ID'`);
    expect(await ctl.jobField(step.out.trim(), 'AllocNode:Sid')).toBe(`${hostname()}:${step.sid}`);
    expect(step.sid).not.toBe(batch.sid);
  }, 60_000);
});
