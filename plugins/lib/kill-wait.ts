// proctrack_p_wait's loop, shared by the proctrack plugins: SIGKILL what is left of a container
// until nothing live remains, as Slurm does, but starting at 100 ms instead of Slurm's 1 s
// (SIGKILLed processes are usually gone at once) and doubling up to 32 s.
import { setTimeout as sleep } from 'node:timers/promises';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 32_000;

export type KillWaitResult = { empty: true } | { empty: false; elapsedSeconds: number };

export async function killUntilEmpty(
  live: () => Promise<readonly number[]>,
  kill: () => Promise<unknown>,
  timeoutSeconds: number,
): Promise<KillWaitResult> {
  const start = Date.now();
  let delay = FIRST_DELAY_MS;
  for (;;) {
    if ((await live()).length === 0) return { empty: true };
    const elapsed = (Date.now() - start) / 1000;
    if (elapsed >= timeoutSeconds) return { empty: false, elapsedSeconds: Math.floor(elapsed) };
    await kill();
    await sleep(Math.min(delay, Math.max(0, timeoutSeconds * 1000 - (Date.now() - start))));
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
