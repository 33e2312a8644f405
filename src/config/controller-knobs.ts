// Runtime knobs read from the environment that belong to the controller: a controller takes
// them when it starts (tsctld, or the one a command starts on demand) and keeps them while it
// runs. It writes the values it took to tsctld.knobs.json in the state directory, so a later
// command whose environment names another value can say that the running controller ignores it
// (tsbatch: under -v), instead of the setting silently not applying to its job.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const CONTROLLER_KNOBS = ['TSLURM_MINUTE_SECONDS', 'TSLURM_KILL_WAIT', 'TSLURM_MIN_JOB_AGE', 'TSLURM_CTLD_IDLE_EXIT'] as const;
export type ControllerKnob = (typeof CONTROLLER_KNOBS)[number];

function knobsFile(stateDir: string): string {
  return path.join(stateDir, 'tsctld.knobs.json');
}

/** The controller's side: the values in force (seconds), once it is about to serve. */
export function recordControllerKnobs(stateDir: string, values: Record<ControllerKnob, number>): void {
  try {
    writeFileSync(knobsFile(stateDir), `${JSON.stringify(values)}\n`, { mode: 0o600 });
  } catch {
    // only the reports of ignored settings need it
  }
}

/** A command's side: one message per knob its environment sets to a value the running controller does not use. */
export function ignoredKnobs(stateDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  let running: Partial<Record<ControllerKnob, number>>;
  try {
    running = JSON.parse(readFileSync(knobsFile(stateDir), 'utf8')) as Partial<Record<ControllerKnob, number>>;
  } catch {
    return [];
  }
  const messages: string[] = [];
  for (const knob of CONTROLLER_KNOBS) {
    const text = env[knob];
    const asked = Number.parseFloat(text ?? '');
    const inForce = running[knob];
    if (text === undefined || !Number.isFinite(asked) || inForce === undefined || asked === inForce) continue;
    messages.push(`${knob}=${text} is ignored: the running controller uses ${inForce} (it takes ${knob} when it starts; stop it, or use another TSLURM_STATE_DIR)`);
  }
  return messages;
}
