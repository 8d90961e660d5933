#!/usr/bin/env bash
# Submit an fcauto batch run to Slurm as a job array of N shards plus a merge job that runs
# after all of them succeed.
#
#   scripts/slurm/submit.sh --range 1..1000000 --shards 100 --out /shared/fc/run1 [--mode fast]
#       [--fcauto PATH] [--extra "--max-states 500000"] [--tasks LIST] [--after JOBID]
#       [-- more sbatch options, e.g. --partition=short --time=02:00:00]
#
# --tasks LIST   submit only these array indices (e.g. 3 or 3,5-7, or with Slurm's throttle,
#                1-100%10): to resume shards whose task failed or was cancelled; they continue
#                where they stopped.
# --after JOBID  the merge also waits until job JOBID (the first submission's array) has ended
#                (a job id: Slurm takes one it no longer knows as ended).
# The first submission into OUT records its range, shard count, mode and extra flags in
# OUT/submit.settings; a later one into OUT must give the same (its tasks would fail on them).
# If the merge job cannot be queued, the array job just queued is cancelled (nothing is left
# to run without its merge) and submit.sh exits 1.
# --extra FLAGS  more `fcauto batch run` flags for every shard, checked before anything is queued.
# Shards take interleaved blocks of 1000 deals, or of (deals in the range) / N when that is
# less, so every shard gets work (fcauto batch run --help, --block).
# Prints the array job id and the merge job id. Databases: OUT/shard-I-of-N.sqlite, merged into
# OUT/merged.sqlite; logs in OUT/logs. -h, --help: print this.
set -euo pipefail
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
here="$(cd "$(dirname "$0")" && pwd)"
range="" shards="" out="" mode="fast" fcauto="" extra="" tasks="" after=""
while (($#)); do
  case "$1" in
    --range|--shards|--out|--mode|--fcauto|--extra|--tasks|--after)
      (($# >= 2)) || { echo "submit.sh: $1 needs a value (submit.sh --help)" >&2; exit 2; } ;;&
    --range) range="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --fcauto) fcauto="$2"; shift 2 ;;
    --extra) extra="$2"; shift 2 ;;
    --tasks) tasks="$2"; shift 2 ;;
    --after) after="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "submit.sh: unknown option '$1' (submit.sh --help)" >&2; exit 2 ;;
  esac
done
[[ -n "$range" && -n "$shards" && -n "$out" ]] || {
  echo "submit.sh: --range, --shards and --out are required" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: --shards must be a positive number" >&2; exit 2; }
if [[ -z "$fcauto" ]]; then
  fcauto="$(cd "$here/../.." && pwd)/target/release/fcauto"
fi
[[ -x "$fcauto" ]] || { echo "submit.sh: $fcauto is not an executable (build it: cargo build --release --features batch)" >&2; exit 2; }
# The tasks run in OUT/logs: a relative path would name another file there.
[[ "$fcauto" == /* ]] || fcauto="$(cd "$(dirname "$fcauto")" && pwd)/$(basename "$fcauto")"
# --tasks names array indices of 1..N (each one shard I of N).
# Slurm's array syntax: indices and ranges A-B (A <= B) joined by commas, and optionally
# a throttle %K (at most K tasks at once).
if [[ -n "$tasks" ]]; then
  [[ "$tasks" =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*(%[1-9][0-9]*)?$ ]] || {
    echo "submit.sh: --tasks $tasks: give indices and ranges joined by commas (3 or 3,5-7, then optionally %K)" >&2; exit 2; }
  list=${tasks%\%*}
  for t in ${list//,/ }; do
    lo=${t%-*} hi=${t#*-}
    for n in "$lo" "$hi"; do
      [[ "$n" =~ ^[1-9][0-9]*$ ]] && ((n <= shards)) || {
        echo "submit.sh: --tasks $tasks: each index is a shard, 1..$shards" >&2; exit 2; }
    done
    ((lo <= hi)) || { echo "submit.sh: --tasks $tasks: range $t runs backwards" >&2; exit 2; }
  done
fi
[[ -z "$after" || "$after" =~ ^[1-9][0-9]*$ ]] || {
  echo "submit.sh: --after $after: give the job id of the first submission's array (a number)" >&2; exit 2; }
# Refuse bad arguments here, before anything is queued: a dry check of the range, mode,
# extra flags and of the last shard (every shard must get deals).
# shellcheck disable=SC2086 # extra is a list of flags
# The shard script adds --threads, so --extra may not give it (checked with the same flag).
"$fcauto" batch run --range "$range" --mode "$mode" --shard "$shards/$shards" --check-args \
  --threads 1 --db /dev/null $extra >/dev/null || {
  echo "submit.sh: fcauto refused these arguments; nothing queued" >&2; exit 2; }
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)"
# What every task of OUT is run with: a resubmission with other settings would only fail
# when its tasks run (their databases hold the first settings). The extra flags are compared
# as words (spaces between them do not count).
read -ra words <<<"$extra"
settings="range=$range
shards=$shards
mode=$mode
extra=${words[*]}"
if [[ -f "$out/submit.settings" ]]; then
  [[ "$(cat "$out/submit.settings")" == "$settings" ]] || {
    echo "submit.sh: $out was submitted with other settings (give the same, or use another --out):" >&2
    sed 's/^/  /' "$out/submit.settings" >&2
    echo "this submission:" >&2
    sed 's/^/  /' <<<"$settings" >&2
    exit 2
  }
fi
export FCAUTO_BIN="$fcauto" FCAUTO_RANGE="$range" FCAUTO_SHARDS="$shards" FCAUTO_MODE="$mode" \
  FCAUTO_OUT="$out" FCAUTO_EXTRA="$extra"
array="${tasks:-1-$shards}"
job=$(sbatch --parsable --export=ALL --array="$array" --chdir="$out/logs" "$@" "$here/fcauto-shard.sbatch")
job=${job%%;*}
[[ -f "$out/submit.settings" ]] || printf '%s\n' "$settings" >"$out/submit.settings"
dep="afterok:$job"
[[ -n "$after" ]] && dep="$dep,afterany:$after"
merge=$(sbatch --parsable --export=ALL --dependency="$dep" --kill-on-invalid-dep=yes \
  --chdir="$out/logs" "$@" "$here/fcauto-merge.sbatch") || {
  scancel "$job" || true
  echo "submit.sh: the merge job could not be queued; array job $job cancelled (nothing queued)" >&2
  exit 1
}
merge=${merge%%;*}
echo "array job $job (tasks $array of $shards), merge job $merge; databases in $out"
