// The pipe a starting tsctld answers its starter on (client/start-controller.ts and tsctld's
// own background start): one line, `ready`, `raced` (another controller won the state
// directory: use that one) or `error: <why>`, then the pipe is closed. Its fd and the
// on-demand flag come in the environment, which is cleared at once so that nothing the
// controller starts later inherits them.
import { closeSync, writeSync } from 'node:fs';

export const REPORT_FD = 3;
export const REPORT_FD_ENV = 'TSLURM_CTLD_REPORT_FD';
/** Set by a command that starts the controller for itself: losing the race to another is expected. */
export const ON_DEMAND_ENV = 'TSLURM_CTLD_ON_DEMAND';

let reportFd: number | undefined;
let onDemand = false;

/** Takes the starter's settings out of the environment; call once, first thing. */
export function takeStartReport(): void {
  const fd = Number(process.env[REPORT_FD_ENV]);
  if (Number.isSafeInteger(fd) && fd > 2) reportFd = fd;
  onDemand = process.env[ON_DEMAND_ENV] === '1';
  delete process.env[REPORT_FD_ENV];
  delete process.env[ON_DEMAND_ENV];
}

/** Whether a command started this controller for itself (a lost race is then no error). */
export function startedOnDemand(): boolean {
  return onDemand;
}

/** Says `line` to the starter, once; later calls do nothing. */
export function reportStart(line: string): void {
  if (reportFd === undefined) return;
  const fd = reportFd;
  reportFd = undefined;
  try {
    writeSync(fd, `${line.replace(/\n/g, ' ')}\n`);
  } catch {
    // the starter has gone: nobody to tell
  }
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
