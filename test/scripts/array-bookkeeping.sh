#!/bin/bash
# Array jobs as scripts keep track of them: `sbatch --array` with a throttle, per-task output
# files (%A_%a), `squeue -r` task by task, each task's SLURM_ARRAY_* variables, `scontrol show
# job ID_N`, and cancelling the tasks that are left. The cluster comes from the environment.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

wait_gone() {
  for _ in $(seq 900); do [ -z "$(squeue -h -j "$1" -o %T 2>/dev/null || true)" ] && return 0; sleep 0.2; done
  fail "job $1 still queued"
}

id=$(sbatch --parsable --array=0-5%2 -o 'task-%A_%a.out' \
  --wrap 'echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX"; sleep 1')
[[ $id =~ ^[0-9]+$ ]] || fail "sbatch --parsable --array printed '$id'"

# The throttle: never more than two tasks running at once.
while [ -n "$(squeue -h -j "$id" -o %T 2>/dev/null || true)" ]; do
  running=$(squeue -h -r -j "$id" -o %T | grep -c RUNNING || true)
  [ "$running" -le 2 ] || fail "$running tasks running under %2"
  sleep 0.2
done

for t in 0 1 2 3 4 5; do
  [ -f "task-${id}_$t.out" ] || fail "no task-${id}_$t.out"
  [ "$(cat "task-${id}_$t.out")" = "$id $t 6 0 5" ] || fail "task $t printed: $(cat "task-${id}_$t.out")"
  line=$(scontrol -o show job "${id}_$t")
  grep -q " ArrayJobId=$id ArrayTaskId=$t " <<<"$line" || fail "scontrol show job ${id}_$t: $line"
  grep -q ' JobState=COMPLETED ' <<<"$line" || fail "task $t: $line"
done

# A long array: some tasks run, the rest wait as one pending record; scancel ID ends them all.
big=$(sbatch --parsable --array=1-20%1 --wrap 'sleep 30')
for _ in $(seq 300); do [ "$(squeue -h -r -j "$big" -o %T | grep -c RUNNING || true)" = 1 ] && break; sleep 0.2; done
[ "$(squeue -h -r -j "$big" -o %T | grep -c RUNNING || true)" = 1 ] || fail "no task of $big running"
[ "$(squeue -h -r -j "$big" -o %i | wc -l)" = 20 ] || fail "squeue -r lists $(squeue -h -r -j "$big" -o %i | wc -l) tasks"
pending=$(squeue -h -j "$big" -t PD -o %i)
[[ $pending =~ ^${big}_\[[0-9]+-20%1\]$ ]] || fail "pending tasks shown as '$pending'"
scancel "$big"
wait_gone "$big"
[ "$(scontrol -o show job "${big}_20" | sed -n 's/.* JobState=\([A-Z]*\) .*/\1/p')" = CANCELLED ] || fail "task 20 not cancelled"
echo OK
