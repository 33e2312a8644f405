// A tsrestd for the dashboard's browser tests and benchmark: started on a test controller's
// state directory, listening on a free TCP port, with the address a user would open (the
// printed one-time login link) and one with a `tscontrol token` in the fragment.
import { execa, type ResultPromise } from 'execa';
import { userInfo } from 'node:os';
import path from 'node:path';
import { repoRoot } from './run-bin.js';
import type { TestController } from './controller.js';

export interface DashboardServer {
  /** `http://127.0.0.1:PORT/`. */
  base: string;
  /** What to open: the printed dashboard address, its one-time login in the fragment. */
  address: string;
  /** The base with a `tscontrol token` in the fragment (good for any number of tabs). */
  tokenAddress: string;
  stop(): Promise<void>;
}

export const CHROMIUM = process.env.TSLURM_CHROMIUM ?? '/usr/bin/chromium';

/** Chromium's flags here: root (CI) has no user-namespace sandbox. */
export const chromiumArgs = (): string[] => (process.getuid?.() === 0 ? ['--no-sandbox'] : []);

export async function startDashboardServer(ctl: TestController, cluster: string, intervalSeconds = 0.5): Promise<DashboardServer> {
  const child: ResultPromise = execa(process.execPath, [path.join(repoRoot, 'bin', 'tsrestd.js'), '--cluster', cluster, '--listen', '127.0.0.1:0'], {
    reject: false,
    cwd: ctl.workDir,
    stdin: 'ignore',
    env: { NO_COLOR: '1', ...ctl.env, TSRESTD_DASHBOARD_INTERVAL: String(intervalSeconds) },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /: dashboard: (http:\/\/\S+)\n/.exec(out);
      if (found) resolve(found[1]!);
    });
    void child.then((result) => reject(new Error(`tsrestd exited before listening: ${String(result.stderr)}`)));
  });
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await child;
  };
  const token = await ctl.run('tscontrol', ['--cluster', cluster, 'token']);
  const jwt = /SLURM_JWT=(\S+)/.exec(token.stdout)?.[1];
  if (!jwt) throw new Error(`tscontrol token gave no token: ${token.stdout}${token.stderr}`);
  const base = line.slice(0, line.indexOf('#'));
  const tokenAddress = `${base}#user=${encodeURIComponent(userInfo().username)}&token=${jwt}`;
  return { base, address: line, tokenAddress, stop };
}
