#!/bin/bash
# A CI job written for Slurm, run unchanged against tslurm through the drop-in names: only
# sbatch, squeue, scontrol, scancel, sinfo, and srun inside salloc, parsed the way workflow
# tools parse them.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# Polls squeue until the job (every task of an array) has left the active states.
wait_done() {
  local id=$1 states
  for _ in $(seq 600); do
    states=$(squeue -h -j "$id" -o %T 2>/dev/null || true)
    if ! grep -qE 'PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED' <<<"$states"; then return 0; fi
    sleep 0.2
  done
  fail "job $id did not finish"
}

sbatch --version | grep -qE '^slurm [0-9]+\.[0-9]+' || fail "sbatch --version: $(sbatch --version)"
sinfo -h -o '%P %a' | grep -q 'up' || fail 'no partition is up'

array=$(sbatch --parsable --array=1-3 -o 'arr-%A_%a.out' --wrap 'echo task $SLURM_ARRAY_TASK_ID')
[[ $array =~ ^[0-9]+$ ]] || fail "sbatch --parsable printed '$array'"
after=$(sbatch --parsable --dependency="afterok:$array" -o after.out --wrap 'cat arr-*.out | sort > all.txt')
# squeue -j lists active jobs only: a dependent job that already finished prints nothing.
shown=$(squeue -h -j "$after" -o '%T %r')
[ -z "$shown" ] || grep -qE '^(PENDING (Dependency|None)|RUNNING|COMPLETING)' <<<"$shown" || fail "dependent job: $shown"

wait_done "$array"
wait_done "$after"
scontrol show job "$after" | grep -q ' JobState=COMPLETED ' || fail "$(scontrol show job "$after")"
exit_code=$(scontrol show job "$after" | sed -n 's/.* ExitCode=\([0-9]*:[0-9]*\).*/\1/p')
[ "$exit_code" = 0:0 ] || fail "ExitCode=$exit_code"
[ "$(cat all.txt)" = $'task 1\ntask 2\ntask 3' ] || fail "all.txt: $(cat all.txt)"
[ "$(scontrol show job "${array}_2" | sed -n 's/^JobId=\([0-9]*\) .*/\1/p')" != "" ] || fail 'no JobId= line for an array task'

long=$(sbatch --parsable -J long --wrap 'sleep 300')
for _ in $(seq 300); do [ "$(squeue -h -j "$long" -o %T)" = RUNNING ] && break; sleep 0.2; done
[ "$(squeue -h -j "$long" -o '%j %T')" = 'long RUNNING' ] || fail "long job: $(squeue -h -j "$long" -o '%j %T')"
scancel "$long"
wait_done "$long"
state=$(scontrol show job "$long" | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p')
[ "$state" = CANCELLED ] || fail "cancelled job is $state"

# An interactive allocation: srun inside salloc runs steps of it; salloc exits with its command.
set +e
steps=$(salloc -N2 -n2 sh -c 'srun -l printenv SLURM_JOB_ID | sort; exit 5' 2>salloc.err)
rc=$?
set -e
[ "$rc" = 5 ] || fail "salloc exited $rc: $(cat salloc.err)"
alloc=$(sed -n 's/^salloc: Granted job allocation \([0-9]*\)$/\1/p' salloc.err)
[[ $alloc =~ ^[0-9]+$ ]] || fail "salloc said: $(cat salloc.err)"
grep -qx "salloc: Relinquishing job allocation $alloc" salloc.err || fail "salloc said: $(cat salloc.err)"
[ "$steps" = "0: $alloc"$'\n'"1: $alloc" ] || fail "steps inside salloc: $steps"
[ "$(scontrol show job "$alloc" | sed -n 's/.* ExitCode=\([0-9]*:[0-9]*\).*/\1/p')" = 5:0 ] || fail "$(scontrol show job "$alloc")"

if out=$(scontrol show job 999999 2>&1); then fail 'scontrol show job 999999 succeeded'; fi
[ "$out" = 'slurm_load_jobs error: Invalid job id specified' ] || fail "unknown job: $out"
if out=$(sbatch --bogus 2>&1); then fail 'sbatch --bogus succeeded'; fi
grep -q '^sbatch: ' <<<"$out" || fail "sbatch's error is not sbatch's: $out"
echo OK
