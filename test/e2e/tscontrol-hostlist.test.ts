// `tscontrol show hostnames|hostlist|hostlistsorted`, compared with what scontrol 22.05 prints.
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';

describe('tscontrol show hostnames', () => {
  it('expands a list, one name a line', async () => {
    const r = await runBin('tscontrol', ['show', 'hostnames', 'n[01-03],m7']);
    expect(r).toEqual({ exitCode: 0, stdout: 'n01\nn02\nn03\nm7\n', stderr: '' });
  });

  it('expands $SLURM_NODELIST when given no list', async () => {
    const r = await runBin('tscontrol', ['show', 'hostnames'], { env: { SLURM_NODELIST: 'node[1-2]' } });
    expect(r.stdout).toBe('node1\nnode2\n');
  });

  it('reports a malformed list in one line (and exits 0, as scontrol does for hostnames)', async () => {
    const r = await runBin('tscontrol', ['show', 'hostnames', 'n[3-1]']);
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: "tscontrol: error: Invalid hostlist: n[3-1] (Invalid range: `3-1')\n" });
  });
});

describe('tscontrol show hostlist', () => {
  it('compresses, keeping order and the width written', async () => {
    expect((await runBin('tscontrol', ['show', 'hostlist', 'n01,n02,n03,m7'])).stdout).toBe('n[01-03],m7\n');
    expect((await runBin('tscontrol', ['show', 'hostlist', 'n3,n1,n2,n2'])).stdout).toBe('n[3,1-2,2]\n');
    expect((await runBin('tscontrol', ['show', 'hostlist', 'node0[61-65]'])).stdout).toBe('node0[61-65]\n');
  });

  it('sorts with hostlistsorted', async () => {
    expect((await runBin('tscontrol', ['show', 'hostlistsorted', 'rack10,rack2,rack1'])).stdout).toBe('rack[1-2,10]\n');
  });

  it('fails on a malformed list with status 1', async () => {
    for (const bad of ['n[3-1]', 'n[1-', 'n[a-b]']) {
      const r = await runBin('tscontrol', ['show', 'hostlist', bad]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^tscontrol: error: Invalid hostlist: ${bad.replace(/[[\]-]/g, '\\$&')}( \\(.*\\))?\\n$`));
    }
  });
});

describe('tscontrol words', () => {
  it('refuses an unknown entity and keyword as scontrol words them', async () => {
    expect(await runBin('tscontrol', ['show', 'foo'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'invalid entity:foo for keyword:show \n',
    });
    expect((await runBin('tscontrol', ['bogus'])).stderr).toBe('invalid keyword: bogus\n');
  });
});
