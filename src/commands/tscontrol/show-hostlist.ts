// `show hostnames|hostlist|hostlistsorted`, as scontrol 22.05 does them: with no argument,
// hostnames expands $SLURM_NODELIST; hostlist prints the expression compressed but keeps the
// prefix and width written in brackets (`node0[61-65]` stays so); hostlistsorted sorts it.
import { UserError } from '../../core/errors.js';
import { HostlistError, expandHostlist, rangedHostlist, rangedHostlistSorted } from '../../core/hostlist.js';

export type HostlistEntity = 'hostnames' | 'hostlist' | 'hostlistsorted';

export interface HostlistOutput {
  stdout: string;
  /** One error line (without the `tscontrol: error: ` prefix), if any. */
  error?: string;
  exitCode: number;
}

export function showHostlist(entity: HostlistEntity, args: readonly string[], env: NodeJS.ProcessEnv): HostlistOutput {
  if (args.length > 1) throw new UserError('too many arguments for keyword:show');
  // scontrol exits 0 after a bad list for `hostnames` but 1 for `hostlist*` (observed on
  // Slurm 22.05); scripts that test the status see the same here.
  const failStatus = entity === 'hostnames' ? 0 : 1;
  const expr = args[0] ?? (entity === 'hostnames' ? env.SLURM_NODELIST : undefined);
  if (expr === undefined) {
    return entity === 'hostnames'
      ? { stdout: '', error: 'host list is empty', exitCode: 0 }
      : { stdout: '', error: 'invalid encode argument', exitCode: 1 };
  }
  try {
    if (entity === 'hostnames') return { stdout: expandHostlist(expr).map((n) => `${n}\n`).join(''), exitCode: 0 };
    const text = entity === 'hostlist' ? rangedHostlist(expr) : rangedHostlistSorted(expr);
    return { stdout: `${text}\n`, exitCode: 0 };
  } catch (error) {
    if (!(error instanceof HostlistError)) throw error;
    const detail = error.detail?.replace(/^_\w+: /, '');
    return { stdout: '', error: detail ? `${error.message} (${detail})` : error.message, exitCode: failStatus };
  }
}
