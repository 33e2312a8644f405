#!/bin/bash
# A pipeline of `sbatch --parsable` jobs chained with --dependency, as workflow scripts build
# them: prepare → (two analyses) → collect with afterok, a cleanup with afterany, and an
# error handler with afternotok that must never run when all goes well. The cluster comes from
# the environment.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

state() { scontrol show job "$1" | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'; }
reason() { scontrol show job "$1" | sed -n 's/.* Reason=\([A-Za-z_]*\) .*/\1/p'; }
wait_gone() {
  for _ in $(seq 900); do [ -z "$(squeue -h -j "$1" -o %T 2>/dev/null || true)" ] && return 0; sleep 0.2; done
  fail "job $1 still queued"
}

# prep is held while the chain is built and checked, so nothing starts before it is released.
prep=$(sbatch --parsable --hold --wrap 'echo prep >> order.txt')
a=$(sbatch --parsable --dependency="afterok:$prep" --wrap 'echo a >> order.txt')
b=$(sbatch --parsable -d "afterok:$prep" --wrap 'echo b >> order.txt')
collect=$(sbatch --parsable --dependency="afterok:$a:$b" --wrap 'echo collect >> order.txt')
cleanup=$(sbatch --parsable --dependency="afterany:$collect" --wrap 'echo cleanup >> order.txt')
onerror=$(sbatch --parsable --dependency="afternotok:$collect" --wrap 'echo onerror >> order.txt')

# While prep waits, the others wait on their dependency.
for _ in $(seq 100); do [ "$(squeue -h -j "$collect" -o '%T %r')" = 'PENDING Dependency' ] && break; sleep 0.2; done
[ "$(squeue -h -j "$collect" -o '%T %r')" = 'PENDING Dependency' ] || fail "collect: $(squeue -h -j "$collect" -o '%T %r')"
scontrol show job "$collect" | grep -q " Dependency=afterok:$a(unfulfilled),afterok:$b(unfulfilled)$" || fail "Dependency=: $(scontrol show job "$collect" | grep Dependency)"
scontrol release "$prep"

wait_gone "$cleanup"
for id in "$prep" "$a" "$b" "$collect" "$cleanup"; do [ "$(state "$id")" = COMPLETED ] || fail "job $id is $(state "$id")"; done
[ "$(head -1 order.txt)" = prep ] || fail "order: $(tr '\n' ' ' < order.txt)"
[ "$(sed -n 2,3p order.txt | sort | tr '\n' ' ')" = 'a b ' ] || fail "order: $(tr '\n' ' ' < order.txt)"
[ "$(sed -n 4,5p order.txt | tr '\n' ' ')" = 'collect cleanup ' ] || fail "order: $(tr '\n' ' ' < order.txt)"

# The error handler can never run now: it waits with DependencyNeverSatisfied until cancelled.
for _ in $(seq 300); do [ "$(reason "$onerror")" = DependencyNeverSatisfied ] && break; sleep 0.2; done
[ "$(squeue -h -j "$onerror" -o '%T %r')" = 'PENDING DependencyNeverSatisfied' ] || fail "onerror: $(squeue -h -j "$onerror" -o '%T %r')"
scancel "$onerror"
wait_gone "$onerror"
[ "$(state "$onerror")" = CANCELLED ] || fail "onerror is $(state "$onerror")"
grep -q onerror order.txt && fail 'the afternotok job ran'
echo OK
