#!/usr/bin/env bash
# fcauto batch on a real Slurm, on this one machine (as CI runs it; needs root):
#   1. installs slurm-wlm, munge and sqlite3 if missing (scripts/setup-deps.sh --slurm; skip
#      with FCAUTO_SKIP_SETUP=1) and builds fcauto (release);
#   2. starts its own munged, slurmctld and slurmd on private sockets, ports and folders, from
#      a generated slurm.conf (one node with this machine's CPUs, proctrack/linuxproc,
#      task/none), so nothing of a Slurm already on the machine is used or changed;
#   3. submits deals 1..20000 as 8 shards with scripts/slurm/submit.sh (each task slowed a
#      little so that it can be caught mid-run), cancels task 3 with scancel once it has
#      committed rows, checks that the merge job was dropped, resubmits task 3 (it resumes),
#      and lets the new merge job merge all eight;
#   4. compares merged.sqlite deal by deal with a single-process `fcauto batch run`: exactly
#      20000 rows, no duplicate, 11982 the only unsolvable deal, equal rows;
#   5. stops the daemons it started (also on failure) and removes its folder (kept on failure).
set -euo pipefail
# -h, --help: print the comment above and do nothing else (the script installs and builds).
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
root="$(pwd)"

[[ $(id -u) -eq 0 ]] || { echo "selftest: run as root (it starts munged, slurmctld and slurmd)" >&2; exit 1; }
if [[ "${FCAUTO_SKIP_SETUP:-0}" != 1 ]]; then
  scripts/setup-deps.sh --slurm
fi
# Any feature set with batch will do (test.sh passes its own, so nothing is rebuilt).
# FCAUTO_SKIP_BUILD=1: the caller has built target/release/fcauto with the features (test.sh,
# which runs this beside cargo doc and must not wait on cargo's lock).
if [[ "${FCAUTO_SKIP_BUILD:-0}" != 1 ]]; then
  cargo build --release --locked --quiet --features "${FCAUTO_FEATURES:-batch}"
fi
fcauto="${CARGO_TARGET_DIR:-$root/target}/release/fcauto"

work="$(mktemp -d /tmp/fcauto-slurm-selftest.XXXXXX)"
chmod 755 "$work"
say() { echo "selftest: $*"; }
pids=()
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do
    [[ -f "$p" ]] && kill "$(cat "$p")" 2>/dev/null || true
  done
  sleep 1
  for p in "${pids[@]}"; do
    [[ -f "$p" ]] && kill -9 "$(cat "$p")" 2>/dev/null || true
  done
  if ((rc == 0)); then
    rm -rf "$work"
  else
    say "FAILED (exit $rc); logs and databases kept in $work"
    tail -n 20 "$work"/*.log 2>/dev/null || true
  fi
  exit "$rc"
}
trap cleanup EXIT

# --- munge: a private key and socket.
mkdir -p "$work/munge"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
sock="$work/munge/munge.sock"
munged --force --socket="$sock" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed"
pids+=("$work/munge/munged.pid")

# --- Slurm: one node, this machine's CPUs, ports away from the defaults.
host="$(hostname -s)"
mkdir -p "$work/state" "$work/spool" "$work/out"
cat >"$work/slurm.conf" <<CONF
ClusterName=fcautotest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
DependencyParameters=kill_invalid_depend
SlurmdTimeout=60
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=selftest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
pids+=("$work/slurmctld.pid")
slurmd -f "$SLURM_CONF"
pids+=("$work/slurmd.pid")
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)' || { say "the node did not come up"; sinfo; exit 1; }
say "slurm up: $(sinfo -h -o '%P %D node(s) %c CPUs %T')"

# Wait until none of the given jobs is queued or running (at most $1 seconds).
wait_gone() {
  local limit=$1; shift
  for _ in $(seq "$limit"); do
    [[ -z "$(squeue -h -j "$(IFS=,; echo "$*")" 2>/dev/null)" ]] && return 0
    sleep 1
  done
  say "jobs $* still queued after $limit s:"; squeue; return 1
}

# --- The run: 8 shards, each task slowed by 2 ms a deal so that it lasts several seconds.
out="$work/out"
sub=$(scripts/slurm/submit.sh --range 1..20000 --shards 8 --out "$out" --fcauto "$fcauto" --extra "--pause-ms 2")
say "$sub"
job=$(sed -E 's/^array job ([0-9]+).*/\1/' <<<"$sub")
merge1=$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$sub")

# --- Cancel task 3 mid-run: once it is running and has committed rows.
db3="$out/shard-3-of-8.sqlite"
for _ in $(seq 300); do
  if [[ "$(squeue -h -j "${job}_3" -o %T 2>/dev/null)" == RUNNING && -s "$db3-wal" ]]; then
    break
  fi
  sleep 0.2
done
[[ -s "$db3-wal" ]] || { say "task 3 never committed rows"; exit 1; }
scancel "${job}_3"
say "cancelled task ${job}_3 mid-run"
wait_gone 300 "$job" "$merge1"
rows3=$(sqlite3 "$db3" 'SELECT COUNT(*) FROM results')
say "task 3 had stored $rows3 of 3000 rows when cancelled"
((rows3 > 0 && rows3 < 3000)) || { say "task 3 was not cancelled mid-run ($rows3 rows)"; exit 1; }
[[ ! -e "$out/merged.sqlite" ]] || { say "the first merge ran although a task was cancelled"; exit 1; }

# --- Resubmit task 3 (it resumes) with a merge after it.
sub=$(scripts/slurm/submit.sh --range 1..20000 --shards 8 --out "$out" --fcauto "$fcauto" --extra "--pause-ms 2" --tasks 3 --after "$job")
say "$sub"
job2=$(sed -E 's/^array job ([0-9]+).*/\1/' <<<"$sub")
merge2=$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$sub")
wait_gone 600 "$job2" "$merge2"
grep -q "already in" "$out"/logs/fcauto-shard-"${job2}"_3.out
say "resubmitted task: $(grep 'already in' "$out"/logs/fcauto-shard-"${job2}"_3.out)"
[[ -f "$out/merged.sqlite" ]] || { say "no merged.sqlite"; cat "$out"/logs/fcauto-merge-*.out; exit 1; }
cat "$out/logs/fcauto-merge-$merge2.out"

# --- Compare with a single-process run, deal by deal.
"$fcauto" batch run --range 1..20000 --db "$work/single.sqlite" 2>/dev/null
check() {
  local got
  got=$(sqlite3 "$out/merged.sqlite" "ATTACH '$work/single.sqlite' AS single; $2")
  [[ "$got" == "$3" ]] || { say "FAIL: $1: got '$got', expected '$3'"; exit 1; }
  say "ok: $1 = $got"
}
check "rows" "SELECT COUNT(*) FROM results" 20000
check "distinct deals" "SELECT COUNT(DISTINCT deal) FROM results" 20000
check "deal range" "SELECT MIN(deal) || '..' || MAX(deal) FROM results" "1..20000"
check "unsolvable deals" "SELECT group_concat(deal) FROM results WHERE verdict = 'unsolvable'" 11982
check "unknown deals" "SELECT COUNT(*) FROM results WHERE verdict = 'unknown'" 0
check "rows equal to the single run" \
  "SELECT COUNT(*) FROM results m JOIN single.results s USING (deal)
   WHERE m.verdict = s.verdict AND m.moves_total IS s.moves_total
     AND m.single_card_moves IS s.single_card_moves AND m.solution IS s.solution" 20000
say "passed: 8 shards on Slurm, one cancelled mid-run and resumed, merged = single run"
