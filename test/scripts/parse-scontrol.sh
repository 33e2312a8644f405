#!/bin/bash
# Reading `scontrol -o show job` the way scripts do: split the one line into Key=Value words
# (a value may hold spaces only in the last keys, so a name without spaces is read whole),
# `scontrol -d -o show jobs` for the CPUs each node gave, `scontrol wait_job`, and
# `scontrol update` on the job while it waits. The cluster comes from the environment.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

# field ID KEY: the value of KEY in `scontrol -o show job ID`.
field() { scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }

name="analysis_$(printf 'x%.0s' $(seq 120))"
id=$(sbatch --parsable -J "$name" -n 2 -t 5 --wrap 'sleep 30')
[ "$(field "$id" JobName)" = "$name" ] || fail "JobName: $(field "$id" JobName)"
[ "$(squeue -h -j "$id" -o %j)" = "$name" ] || fail "squeue %j: $(squeue -h -j "$id" -o %j)"
[ "$(field "$id" TimeLimit)" = 00:05:00 ] || fail "TimeLimit: $(field "$id" TimeLimit)"
[ "$(field "$id" NumTasks)" = 2 ] || fail "NumTasks: $(field "$id" NumTasks)"

for _ in $(seq 300); do [ "$(field "$id" JobState)" = RUNNING ] && break; sleep 0.2; done
[ "$(field "$id" JobState)" = RUNNING ] || fail "job $id is $(field "$id" JobState)"
scontrol wait_job "$id" 2>&1 | grep -q "Nodes are ready for job $id" || fail "wait_job $id"
node=$(field "$id" BatchHost)
[ -n "$node" ] && [ "$(field "$id" NodeList)" = "$node" ] || fail "NodeList $(field "$id" NodeList) BatchHost $node"
scontrol show node "$node" | grep -qE "^NodeName=$node " || fail "show node $node"

# -d: the CPUs of the allocation, per node, as `  Nodes=N CPU_IDs=a-b Mem=M GRES=`.
detail=$(scontrol -d -o show jobs | grep "^JobId=$id ")
grep -qE " DerivedExitCode=0:0 " <<<"$detail" || fail "no DerivedExitCode: $detail"
cpus=$(sed -n 's/.* Nodes=[^ ]* CPU_IDs=\([0-9,-]*\) Mem=.*/\1/p' <<<"$detail")
count=0
for part in ${cpus//,/ }; do
  if [[ $part == *-* ]]; then count=$((count + ${part#*-} - ${part%-*} + 1)); else count=$((count + 1)); fi
done
[ "$count" = "$(field "$id" NumCPUs)" ] || fail "CPU_IDs=$cpus for NumCPUs=$(field "$id" NumCPUs)"

# Options go before or after the words.
[ "$(scontrol show job "$id" -o | cut -d' ' -f1)" = "JobId=$id" ] || fail "scontrol show job ID -o"

# Changing a waiting job, then reading it back.
held=$(sbatch --parsable --hold --wrap true)
scontrol update JobId="$held" TimeLimit=7 Comment="from the script" Dependency="afterok:$id"
[ "$(field "$held" TimeLimit)" = 00:07:00 ] || fail "updated TimeLimit: $(field "$held" TimeLimit)"
[ "$(field "$held" Dependency)" = "afterok:$id(unfulfilled)" ] || fail "Dependency: $(field "$held" Dependency)"
scontrol -o show job "$held" | grep -q ' Comment=from the script ' || fail "Comment: $(scontrol -o show job "$held")"

scancel "$id" "$held"

# A step that failed inside a job that succeeded: ExitCode is the script's, DerivedExitCode the step's.
steps=$(sbatch --parsable --wrap "srun sh -c 'exit 3'; srun true; true")
for _ in $(seq 600); do [ -z "$(squeue -h -j "$steps" -o %T 2>/dev/null || true)" ] && break; sleep 0.2; done
[ "$(field "$steps" ExitCode)" = 0:0 ] || fail "ExitCode: $(field "$steps" ExitCode)"
[ "$(scontrol -d -o show job "$steps" | tr ' ' '\n' | sed -n 's/^DerivedExitCode=//p')" = 3:0 ] || fail "DerivedExitCode: $(scontrol -d show job "$steps" | grep Derived)"
if out=$(scontrol show job 999999 2>&1); then fail 'scontrol show job 999999 succeeded'; fi
[ "$out" = 'slurm_load_jobs error: Invalid job id specified' ] || fail "unknown job: $out"
echo OK
