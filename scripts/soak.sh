#!/usr/bin/env bash
# soak.sh MINUTES - a farm on 127.0.0.1 under churn for MINUTES (not in CI): a tracker with a
# dashboard, workers killed with SIGKILL and restarted every few seconds, tuning jobs submitted
# and some cancelled, and hostile clients in between (garbage on the gRPC port, slow and idle
# HTTP connections, oversized and malformed dashboard requests). At the end it checks that every
# job finished or was cancelled, that no (job, config) was recorded twice, and that the
# tracker's memory, threads and open files stayed bounded; exits 1 when one fails.
#
# Environment: TUNEFARM (default build/tunefarm), WORKERS (default 3), SOAK_DIR (default a
# fresh temp dir, kept for inspection).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

minutes="${1:-}"
if [[ ! "$minutes" =~ ^[0-9]+$ ]] || ((minutes < 1)); then
  echo "usage: scripts/soak.sh MINUTES" >&2
  exit 2
fi
TF="${TUNEFARM:-$PWD/build/tunefarm}"
WORKERS="${WORKERS:-3}"
dir="${SOAK_DIR:-$(mktemp -d /tmp/tunefarm-soak-XXXXXX)}"
mkdir -p "$dir"
log() { printf '[soak %s] %s\n' "$(date +%T)" "$*"; }

workers=()
cleanup() {
  for p in "${workers[@]}" ${tracker_pid:-}; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

"$TF" tracker --listen 127.0.0.1:0 --port-file "$dir/port" --http 127.0.0.1:0 \
  --db "$dir/soak.db" --max-jobs 200 >"$dir/tracker.log" 2>&1 &
tracker_pid=$!
for _ in $(seq 100); do [[ -s "$dir/port" ]] && break; sleep 0.1; done
port="$(cat "$dir/port")"
http_port="$(grep -oE 'dashboard on http://127.0.0.1:[0-9]+' "$dir/tracker.log" | grep -oE '[0-9]+$' | head -1 || true)"
farm=127.0.0.1:$port
log "tracker pid $tracker_pid on $farm (dashboard port ${http_port:-none}), files in $dir"

start_worker() {
  "$TF" worker --tracker "$farm" --key soak >>"$dir/workers.log" 2>&1 &
  workers+=($!)
}
for _ in $(seq "$WORKERS"); do start_worker; done

sample() {  # rss_kb threads fds
  echo "$(awk '/VmRSS/{print $2}' /proc/$tracker_pid/status) \
$(awk '/Threads/{print $2}' /proc/$tracker_pid/status) $(ls /proc/$tracker_pid/fd | wc -l)"
}
hostile() {
  # Garbage where gRPC expects an HTTP/2 preface, then a half-open connection left idle.
  (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET / HTTP/1.1\r\n\r\n\x00\xff\xfe' >&3 &&
    sleep 2) 2>/dev/null || true
  if [[ -n "${http_port:-}" ]]; then
    # A slow client that never finishes its headers, and idle ones.
    (exec 3<>"/dev/tcp/127.0.0.1/$http_port" && printf 'GET /api/jobs HTTP/1.1\r\nHost: x' >&3 &&
      sleep 15) 2>/dev/null &
    for _ in 1 2 3 4 5; do (exec 3<>"/dev/tcp/127.0.0.1/$http_port" && sleep 10) 2>/dev/null & done
    curl -s -o /dev/null -X POST "http://127.0.0.1:$http_port/api/jobs/nope/cancel" || true
    curl -s -o /dev/null "http://127.0.0.1:$http_port/api/records/99999999999999999999" || true
    curl -s -o /dev/null "http://127.0.0.1:$http_port/$(head -c 20000 /dev/zero | tr '\0' a)" || true
  fi
}

end=$((SECONDS + minutes * 60))
first_sample="" submitted=0 cancelled=0 round=0
while ((SECONDS < end)); do
  round=$((round + 1))
  # A worker dies without warning; a new one takes its place.
  victim=$((RANDOM % ${#workers[@]}))
  kill -9 "${workers[$victim]}" 2>/dev/null || true
  wait "${workers[$victim]}" 2>/dev/null || true  # reaped here, so bash does not report it
  workers=("${workers[@]:0:$victim}" "${workers[@]:$((victim + 1))}")
  start_worker
  # A job now and then, and every third one cancelled a little later.
  if ((round % 2 == 1)); then
    n=$((16 + RANDOM % 48))
    if out=$("$TF" tune --tracker "$farm" --key soak --workload "matmul:$n,$n,$n" --trials 12 \
      --detach 2>>"$dir/clients.log"); then
      submitted=$((submitted + 1))
      id=$(sed -nE 's/^job ([^:]+):.*/\1/p' <<<"$out")
      if ((submitted % 3 == 0)) && [[ -n "$id" ]]; then
        (sleep 3 && "$TF" jobs --tracker "$farm" --cancel "$id" >>"$dir/clients.log" 2>&1) &
        cancelled=$((cancelled + 1))
      fi
    fi
  fi
  hostile
  [[ -z "$first_sample" && $round -eq 10 ]] && first_sample="$(sample)"
  echo "$SECONDS $(sample)" >>"$dir/tracker_samples.txt"
  sleep 4
done
log "churn over: $round rounds, $submitted jobs submitted, $cancelled cancelled"

# Let the jobs end on the remaining workers (cancelled ones already have).
for _ in $(seq 120); do
  open="$("$TF" jobs --tracker "$farm" 2>/dev/null | tail -n +2 | grep -cvE '^no unfinished' || true)"
  ((open == 0)) && break
  sleep 5
done
last_sample="$(sample)"
"$TF" jobs --tracker "$farm" --all --limit 1000 >"$dir/jobs.txt" 2>&1 || true
kill -TERM "$tracker_pid"; wait "$tracker_pid" 2>/dev/null || true

status=0
unfinished=$(grep -cE ' (queued|running) ' "$dir/jobs.txt" || true)
log "jobs: $(grep -cE ' succeeded ' "$dir/jobs.txt" || true) succeeded, \
$(grep -cE ' cancelled ' "$dir/jobs.txt" || true) cancelled, $(grep -cE ' failed ' "$dir/jobs.txt" || true) failed, \
$unfinished unfinished"
((unfinished == 0)) || { log "FAIL: jobs left unfinished"; status=1; }
dups=$(/usr/bin/python3 - "$dir/soak.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT COUNT(*) FROM (SELECT job_id, config_json FROM records WHERE job_id != '' "
                 "GROUP BY job_id, config_json HAVING COUNT(*) > 1)").fetchone()[0])
PY
)
log "records: $(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM records').fetchone()[0])" "$dir/soak.db"), $dups (job, config) pairs recorded twice"
((dups == 0)) || { log "FAIL: records not exactly once"; status=1; }
read -r rss0 thr0 fd0 <<<"${first_sample:-$last_sample}"
read -r rss1 thr1 fd1 <<<"$last_sample"
log "tracker after warm-up: ${rss0} KB RSS, $thr0 threads, $fd0 fds; at the end: ${rss1} KB, $thr1 threads, $fd1 fds"
if ((rss1 > 2 * rss0 + 65536 || thr1 > 2 * thr0 + 16 || fd1 > 2 * fd0 + 32)); then
  log "FAIL: the tracker's memory, threads or open files grew without bound"
  status=1
fi
((status == 0)) && log "ok"
exit "$status"
