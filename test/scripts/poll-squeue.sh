#!/bin/bash
# Submit and poll, the way workflow engines watch a job: `squeue -h -j ID -o %T` until the job
# has left the queue, then its final state and exit code from `scontrol show job`. The cluster
# comes from the environment (SLURM_CONF, or TSLURM_CONF for a tslurm YAML cluster).
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

scontrol ping | grep -q ' is UP$' || fail "controller not up: $(scontrol ping)"

# Polls until squeue no longer lists the job; prints every state it saw, once each.
poll() {
  local id=$1 state last='' seen=''
  for _ in $(seq 900); do
    state=$(squeue -h -j "$id" -o %T 2>/dev/null || true)
    [ -z "$state" ] && { echo "$seen"; return 0; }
    [ "$state" != "$last" ] && seen="$seen${seen:+ }$state" && last=$state
    sleep 0.2
  done
  fail "job $id still queued: $state"
}

ok=$(sbatch --parsable --wrap 'sleep 2; echo done')
[[ $ok =~ ^[0-9]+$ ]] || fail "sbatch --parsable printed '$ok'"
seen=$(poll "$ok")
grep -qE '(^| )RUNNING( |$)' <<<"$seen" || fail "never saw job $ok RUNNING (saw: $seen)"
scontrol show job "$ok" | grep -q ' JobState=COMPLETED ' || fail "job $ok: $(scontrol show job "$ok" | grep JobState)"
[ "$(cat "slurm-$ok.out")" = done ] || fail "slurm-$ok.out: $(cat "slurm-$ok.out")"

bad=$(sbatch --parsable --wrap 'exit 3')
poll "$bad" >/dev/null
line=$(scontrol show job "$bad" | grep ' JobState=')
grep -q 'JobState=FAILED Reason=NonZeroExitCode' <<<"$line" || fail "failed job: $line"
scontrol show job "$bad" | grep -q ' ExitCode=3:0$' || fail "exit code: $(scontrol show job "$bad" | grep ExitCode)"

# A held job stays PENDING with its reason until released.
held=$(sbatch --parsable --hold --wrap true)
[ "$(squeue -h -j "$held" -o '%T %r')" = 'PENDING JobHeldUser' ] || fail "held: $(squeue -h -j "$held" -o '%T %r')"
scontrol release "$held"
poll "$held" >/dev/null
scontrol show job "$held" | grep -q ' JobState=COMPLETED ' || fail "released job did not complete"

# A job squeue no longer knows: nothing on stdout, Slurm's error and status from squeue.
if out=$(squeue -h -j 999999 -o %T 2>&1); then fail "squeue -j 999999 succeeded: $out"; fi
[ "$out" = 'slurm_load_jobs error: Invalid job id specified' ] || fail "squeue -j 999999: $out"
echo OK
