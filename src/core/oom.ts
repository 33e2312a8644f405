// How Slurm 22.05 reports a step whose processes the kernel's out-of-memory killer ended:
// slurmstepd's line (src/plugins/task/cgroup/task_cgroup_memory.c), and the dummy "signal"
// SIG_OOM (src/common/slurm_protocol_defs.h) that it sends instead of a task's status once
// the step had an oom kill (mgr.c _send_exit_msg, _send_complete_batch_script_msg).

/** SIG_OOM: a wait status of 253, which scontrol shows as ExitCode=0:125 (253 - 128). */
export const SIG_OOM = 253;

/** Is this wait status SIG_OOM (Slurm tests the low byte)? */
export function isOomStatus(status: number): boolean {
  return (status & 0xff) === SIG_OOM;
}

/** slurmstepd's error text for `count` oom kills in step `stepId` ("5.0", "5.batch"). */
export function oomEventsMessage(count: number, stepId: string): string {
  return `Detected ${count} oom-kill event(s) in StepId=${stepId}. Some of your processes may have been killed by the cgroup out-of-memory handler.`;
}
