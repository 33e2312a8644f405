#!/bin/bash
# srun inside salloc, as interactive work is scripted: an allocation for a command, steps run in
# it with srun, the allocation's variables in the command's environment, the command's exit
# status handed back by salloc, and the job record afterwards. The cluster comes from the
# environment.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(salloc -n2 -J interactive bash -c 'echo "job $SLURM_JOB_ID nodes $SLURM_NNODES"; srun -n2 bash -c "echo task \$SLURM_PROCID of \$SLURM_NTASKS in \$SLURM_JOB_ID"' 2>salloc.err)
id=$(sed -n 's/^job \([0-9]*\) nodes .*/\1/p' <<<"$out")
[[ $id =~ ^[0-9]+$ ]] || fail "no job id in: $out"
grep -q "^salloc: Granted job allocation $id$" salloc.err || fail "salloc said: $(cat salloc.err)"
[ "$(grep '^task' <<<"$out" | sort)" = "task 0 of 2 in $id
task 1 of 2 in $id" ] || fail "steps printed: $out"
scontrol show job "$id" | grep -q ' JobState=COMPLETED ' || fail "job $id: $(scontrol show job "$id" | grep JobState)"
scontrol show job "$id" | grep -q "^JobId=$id JobName=interactive$" || fail "job $id: $(scontrol show job "$id" | head -1)"

# The command's exit status is salloc's.
set +e
salloc -n1 bash -c 'srun true; exit 7' 2>/dev/null
status=$?
set -e
[ "$status" = 7 ] || fail "salloc exited $status, not 7"
echo OK
