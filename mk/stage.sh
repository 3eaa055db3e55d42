#!/usr/bin/env bash
# The stages of make check and their times.
#   mk/stage.sh NAME COMMAND...   run one stage; record its wall and CPU seconds (its own and
#                                 its children's) and the load average at its start and end
#                                 in $EM_STAGE_DIR/NAME (default build/check-stages)
#   mk/stage.sh --table TITLE     the table of the stages recorded there, in the order they
#                                 started, and the wall time from the first start to the
#                                 last end; written to $EM_STAGE_DIR/../check-wall.json too
#                                 (make bench's row check_wall)
# CPU time tells a stage's cost on a shared machine, where wall time also counts the time
# other processes hold the cores; the load average says how shared it was.
set -uo pipefail
dir=${EM_STAGE_DIR:-build/check-stages}
mkdir -p "$dir"
if [ "${1:-}" = --table ]; then
  title=${2:-check}
  exec python3 - "$dir" "$title" <<'EOF'
import json, os, sys
d, title = sys.argv[1], sys.argv[2]
rows = []
for n in os.listdir(d):
    if n.startswith("."):
        continue
    with open(os.path.join(d, n)) as f:
        r = dict(zip(("t0", "t1", "cpu", "load0", "load1", "rc"), f.read().split()))
    rows.append((float(r["t0"]), float(r["t1"]), n, float(r["cpu"]), r["load0"], r["load1"], int(r["rc"])))
if not rows:
    sys.exit(0)
rows.sort()
t0, t1 = min(r[0] for r in rows), max(r[1] for r in rows)
print(f"make {title}: where the time went (wall s from its start; CPU s of the stage and its children)")
print(f"  {'stage':<16} {'start':>6} {'wall':>6} {'CPU':>7}  load at start/end  status")
for s, e, n, cpu, l0, l1, rc in rows:
    st = "ok" if rc == 0 else f"FAILED ({rc})"
    print(f"  {n:<16} {s - t0:6.0f} {e - s:6.0f} {cpu:7.0f}  {l0:>7} / {l1:<7}  {st}")
cpu = sum(r[3] for r in rows)
print(f"  {'total':<16} {'':>6} {t1 - t0:6.0f} {cpu:7.0f}  ({os.cpu_count()} CPUs)")
out = {"name": "check_wall", "target": title, "wall_s": round(t1 - t0, 1), "cpu_s": round(cpu, 1),
       "load_start": rows[0][4], "load_end": max(rows, key=lambda r: r[1])[5],
       "ok": all(r[6] == 0 for r in rows),
       "stages": [{"stage": n, "wall_s": round(e - s, 1), "cpu_s": round(c, 1), "rc": rc}
                  for s, e, n, c, _, _, rc in rows]}
with open(os.path.join(os.path.dirname(os.path.abspath(d)), f"{title}-wall.json"), "w") as f:
    json.dump(out, f, indent=1)
EOF
fi
name=$1; shift
load() { cut -d' ' -f1 /proc/loadavg; }
t0=$(date +%s.%N) l0=$(load)
rc=0
"$@" || rc=$?
t1=$(date +%s.%N)
# `times`: this shell's user and system time, then its children's (every process it waited for)
# (run in this shell: in $(...) it would be a subshell's, which waited for nothing)
times >"$dir/.times.$name"
cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } print s }' "$dir/.times.$name")
rm -f "$dir/.times.$name"
echo "$t0 $t1 $cpu $l0 $(load) $rc" >"$dir/$name"
printf 'stage %s: %.0f s wall, %.0f s CPU, load %s -> %s%s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$cpu" \
  "$l0" "$(load)" "$([ $rc -eq 0 ] || echo ", FAILED (exit $rc)")"
exit $rc
