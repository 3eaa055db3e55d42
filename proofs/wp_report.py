#!/usr/bin/env python3
"""Read the WP and Why3 reports; the proof gate's verdict and the README table.

  wp_report.py check NAME KIND JSON LOG RC  fail unless every goal of a WP step's run (KIND
                                        proofs or smoke) is proved
  wp_report.py scripts SESSIONS         fail unless every WP proof script under SESSIONS/*/script
                                        only names provers and verdicts (no tactic)
  wp_report.py prune-scripts SESSION LOG  delete SESSION/script/G.json unless LOG (a proving
                                        run's) has goal typed_G proved by a prover, not Qed
  wp_report.py table                    Markdown status table from the reports (proofs/report/,
                                        or EM_REPORT_DIR) and the committed timings
  wp_report.py readme README TABLE      write TABLE's line of totals between the status markers
  wp_report.py readme-check README TABLE  fail if README's totals differ from TABLE's
  wp_report.py timing MODE JOBS WALL DIR OUT  the run's per-step times (DIR/*.time) as JSON
  wp_report.py slowest [SECONDS]        goals whose proof took more than SECONDS (default 1),
                                        slowest first, from proofs/report/wp-*.log and theorems.json
"""
import glob
import json
import os
import re
import sys
import time

BEGIN, END = "<!-- status:begin -->", "<!-- status:end -->"
# The committed reports; a replay (make verify) writes its own under build/ and names that
# folder in EM_REPORT_DIR, so that checking never modifies the tree.
COMMITTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report")
REPORT = os.environ.get("EM_REPORT_DIR") or COMMITTED
STATEMENTS = os.path.join(os.path.dirname(COMMITTED), "theorems", "statements.tsv")


def die(msg):
    print(f"wp_report: {msg}", file=sys.stderr)
    sys.exit(1)


def check(name, kind, path, log, rc):
    problems = []
    if rc != "0":
        problems.append(f"frama-c exited {rc} (a goal unknown, invalid, a warning, or a parse error)")
    text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    for pat, why in [(r"Failed smoke-test", "a smoke test failed: some contract or code is dead/inconsistent"),
                     (r"missing cache", "a goal is not in the WP cache: run `make prove` and commit proofs/wp-session"),
                     (r"[Pp]rover .* not (found|installed)", "a prover is missing"),
                     # "[Unknown] Goal g" or "[<prover or Script>] Goal g : Unknown": a
                     # replay's cache miss is the latter (a script's prover has no entry)
                     (r"\[(Failed|Unknown|Timeout|Invalid)\] Goal|\] Goal \S+ : (Unknown|Failed|Timeout|Invalid|Stepout)",
                      "a goal is not proved (not in the WP cache, or its provers failed)")]:
        if re.search(pat, text):
            problems.append(why)
    if not os.path.exists(path):
        problems.append(f"no report {path}")
    else:
        # a run that selects no goal (EM_WP_FCT or EM_WP_PROP naming nothing) writes null
        main = (json.load(open(path)) or {}).get("wp:global", {}).get("wp:main", {})
        total, valid = main.get("total", 0), main.get("valid", 0)
        if total == 0:
            problems.append("the report has no goals")
        elif valid != total:
            problems.append(f"{total - valid} of {total} goals not proved (unknown, failed or untried)")
        if kind == "smoke":
            print(f"verify: WP step '{name}': {valid}/{total} smoke tests passed")
        else:
            print(f"verify: WP step '{name}': {valid}/{total} goals proved")
    if problems:
        for p in problems:
            print(f"verify: WP step '{name}': {p}", file=sys.stderr)
        sys.exit(1)


SCRIPT_KEYS = {"prover", "verdict", "time", "steps", "depth"}


def scripts(session_root):
    """A WP proof script may only name provers and their verdicts: it chooses which prover a
    replay asks (verify.sh), and must never carry a tactic, which would change the goal."""
    bad = []
    files = sorted(glob.glob(os.path.join(session_root, "*", "script", "*.json")))
    for f in files:
        try:
            # WP writes OCaml's floats: "time": 1. is JSON's 1.0
            text = open(f, encoding="utf-8").read()
            alts = json.loads(re.sub(r"(?<=[0-9])\.(?![0-9])", ".0", text))
        except (OSError, ValueError) as e:
            bad.append(f"{f}: unreadable ({e})")
            continue
        if not isinstance(alts, list) or not all(
                isinstance(a, dict) and "prover" in a and set(a) <= SCRIPT_KEYS for a in alts):
            bad.append(f"{f}: not a list of prover verdicts")
    for b in bad:
        print(f"verify: WP proof script {b}", file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"verify: {len(files)} WP proof scripts, each a list of prover verdicts")


PROVER_VALID = re.compile(r"^\[wp\] \[([^\]]+)\] Goal typed_(\S+) : Valid", re.M)


def prune_scripts(session, log):
    """A cold run keeps the committed scripts as hints (verify.sh); a script whose goal no
    longer exists, or is now closed by Qed, would be read by no run and is deleted."""
    text = open(log, encoding="utf-8", errors="replace").read()
    live = {g for p, g in PROVER_VALID.findall(text) if p != "Qed"}
    gone = [f for f in glob.glob(os.path.join(session, "script", "*.json"))
            if os.path.basename(f)[:-5] not in live]
    for f in gone:
        os.remove(f)
    print(f"verify: {session}: {len(live)} goals proved by a prover, {len(gone)} stale scripts deleted")


def wp_rows():
    """One row per function of each step: its proof goals (wp-STEP.json) and its smoke
    tests (wp-STEP.smoke.json, a run of its own) together."""
    rows = []
    for path in sorted(glob.glob(os.path.join(REPORT, "wp-*.json"))):
        if path.endswith(".smoke.json"):
            continue
        step = os.path.basename(path)[3:-5]
        funcs = json.load(open(path)).get("wp:functions", {})
        smoke_path = path[:-5] + ".smoke.json"
        if os.path.exists(smoke_path):
            for fn, goals in json.load(open(smoke_path)).get("wp:functions", {}).items():
                funcs.setdefault(fn, {}).update(
                    {k: v for k, v in goals.items() if not k.startswith("wp:")})
        for fn in sorted(funcs):
            goals = {k: v for k, v in funcs[fn].items() if not k.startswith("wp:")}
            total = sum(g.get("wp:main", {}).get("total", 0) for g in goals.values())
            valid = sum(g.get("wp:main", {}).get("valid", 0) for g in goals.values())
            smoke = sum(1 for g in goals if "_wp_smoke_" in g)
            props = set()
            for g in goals:
                if not g.startswith(fn + "_") or "_wp_smoke_" in g:
                    continue
                m = re.search(r"_(ensures|exits)_([A-Za-z0-9_]+?)(_part\d+)?$", g)
                if m:
                    props.add(m.group(2))
            rows.append((step, fn, ", ".join(sorted(props)) or "(safety: RTE, assigns)",
                         valid, total, smoke))
        # ACSL lemmas (spec/, proofs/lemmas/*.h): one row per step, every lemma named
        lemmas = {}
        for ax in json.load(open(path)).get("wp:axiomatics", {}).values():
            for name, g in ax.items():
                if name.startswith("lemma_"):
                    lemmas[name[6:]] = g.get("wp:main", {})
        if lemmas:
            rows.append((step, "(ACSL lemmas)", ", ".join(sorted(lemmas)),
                         sum(g.get("valid", 0) for g in lemmas.values()),
                         sum(g.get("total", 0) for g in lemmas.values()), 0))
    return rows


def table():
    out = ["# Proof status",
           "",
           "Generated by `make prove` from the WP and Why3 reports (`proofs/wp_report.py table`); "
           "`make verify` writes the same table from its replay and fails if it differs from "
           "this file.  What each step is and how its time was brought down: `proofs/README.md`; "
           "the slowest goals: `python3 proofs/wp_report.py slowest [SECONDS]`.",
           "",
           "| step | function | named postconditions proved | goals proved / total (smoke tests) |",
           "|---|---|---|---|"]
    gv = gt = 0
    for step, fn, props, v, t, s in wp_rows():
        out.append(f"| WP {step} | `{fn}` | {props} | {v}/{t} ({s}) |")
        gv += v
        gt += t
    tpath = os.path.join(REPORT, "theorems.json")
    tv = tt = 0
    if os.path.exists(tpath):
        th = json.load(open(tpath))
        stmts = {}
        if os.path.exists(STATEMENTS):
            for line in open(STATEMENTS, encoding="utf-8"):
                if "\t" in line:
                    k, v = line.rstrip("\n").split("\t", 1)
                    stmts[k] = v
        goals = {}
        for f in th.get("files", []):
            for g in f.get("goals", []):
                goals[g["name"].split(".")[-1].replace("'vc", "")] = (
                    g.get("subgoals_proved", 0), g.get("subgoals", 0), f["file"])
        for t in th.get("theorems", []):
            name = t["name"]
            v, n, fil = goals.get(name, (0, 0, t.get("file", "")))
            if not t.get("proved"):
                v = 0
            out.append(f"| Why3 | `{name}` ({os.path.basename(fil)}) | {stmts.get(name, '')} | {v}/{n} |")
        tot = th.get("totals", {})
        tv, tt = tot.get("proved", 0), tot.get("total", 0)
    out.append("")
    out.append(f"WP: **{gv}/{gt}** goals proved (smoke tests included); "
               f"Why3 theorems: **{tv}/{tt}** goals proved.")
    out.append("")
    out.append(timing_line())
    return "\n".join(out) + "\n"


def timing(mode, jobs, wall, outdir, dest):
    """The run's timings from the steps' `time` lines (wall, user, system seconds)."""
    steps = []
    for path in sorted(glob.glob(os.path.join(outdir, "*.time"))):
        try:
            r, u, sy = (float(x) for x in open(path).read().split()[-3:])
        except ValueError:
            continue
        steps.append({"step": os.path.basename(path)[:-5], "wall_s": r, "cpu_s": round(u + sy, 2)})
    cpu = "unknown"
    if os.path.exists("/proc/cpuinfo"):
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    doc = {"mode": mode, "parallel_steps": int(jobs), "wall_s": int(wall),
           "cpu_s": round(sum(x["cpu_s"] for x in steps), 1), "cores": os.cpu_count(),
           "cpu": cpu, "date": time.strftime("%Y-%m-%d", time.gmtime()), "steps": steps}
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    json.dump(doc, open(dest, "w"), indent=1)
    for x in sorted(steps, key=lambda x: -x["cpu_s"]):
        print(f"verify: time: {x['step']:14s} {x['wall_s']:7.1f} s wall {x['cpu_s']:7.1f} s CPU")
    print(f"verify: time: total {doc['wall_s']} s wall, {doc['cpu_s']} s CPU ({mode}, "
          f"{jobs} steps at a time; {dest})")


def timing_line():
    """README's timing sentence, from the committed timings (never from the current run)."""
    parts = []
    for name, what in [("timing-replay.json", "`make verify` (replay from the committed caches)"),
                       ("timing-prove.json", "cold `make prove-cold` (every cache emptied, every goal "
                        "proved again, first by the prover its committed proof script names)"),
                       ("timing-scratch.json", "from scratch `make prove-scratch` (caches and proof "
                        "scripts emptied, the provers racing on every goal)"),
                       ("timing-floor.json", "WP's goal generation alone `make proof-floor` (Qed "
                        "only, no prover, no cache: the least any WP run of these goals costs)")]:
        path = os.path.join(COMMITTED, name)
        if os.path.exists(path):
            t = json.load(open(path))
            parts.append(f"{what}: {t['wall_s']} s wall, {t['cpu_s']} s CPU on {t['cores']} cores "
                         f"({t['cpu']}), {t['date']}")
        else:
            parts.append(f"{what}: not recorded")
    return "Timings: " + "; ".join(parts) + "."


GOAL_TIME = re.compile(r"\[wp\] \[([^\]]+)\] Goal (\S+) : Valid(?: \(Qed:[^)]*\))? \(([\d.]+)(ms|s)\)")


def slowest(limit=1.0):
    """Each goal's proof time as recorded: a WP goal's is the time of the prover that proved it
    (a replay prints the cached time; Qed's own time is measured again by every run), a Why3
    sub-goal's that of its prover in the last theorems run (after a replay, the time of the
    cache lookup: proofs/why3/cached-prover keeps verdicts, not times)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(REPORT, "wp-*.log"))):
        step = os.path.basename(path)[3:-4]
        for line in open(path, encoding="utf-8", errors="replace"):
            m = GOAL_TIME.search(line)
            if m:
                t = float(m.group(3)) * (0.001 if m.group(4) == "ms" else 1.0)
                rows.append((t, f"WP {step}", m.group(1), m.group(2)))
    tpath = os.path.join(REPORT, "theorems.json")
    if os.path.exists(tpath):
        for f in json.load(open(tpath)).get("files", []):
            for g in f.get("goals", []):
                for sub in g.get("subgoal_details", []):
                    rows.append((float(sub.get("time", 0)), "Why3", sub.get("prover", "?"),
                                 f"{g['name']} line {sub.get('line')} ({sub.get('kind')})"))
    rows.sort(key=lambda r: -r[0])
    for t, where, prover, goal in rows:
        if t > limit:
            print(f"{t:6.2f} s  {where:17s} {prover:16s} {goal}")
    print(f"{len(rows)} goals with a recorded time; the slowest took {rows[0][0]:.2f} s" if rows
          else "no goal times recorded (run make verify)")


def summary(table_text):
    """README's share of the table: the line of totals."""
    for line in table_text.splitlines():
        if line.startswith("WP: **"):
            return line + "\n"
    die("the status table has no line of totals")


def readme_split(readme):
    text = open(readme, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        die(f"{readme} has no {BEGIN} ... {END} markers")
    a = text.index(BEGIN) + len(BEGIN)
    b = text.index(END)
    return text, a, b


def main(argv):
    if len(argv) < 2:
        die(__doc__)
    cmd = argv[1]
    if cmd == "check" and len(argv) == 7:
        check(*argv[2:7])
    elif cmd == "timing" and len(argv) == 7:
        timing(*argv[2:7])
    elif cmd == "slowest" and len(argv) <= 3:
        slowest(float(argv[2]) if len(argv) == 3 else 1.0)
    elif cmd == "scripts" and len(argv) == 3:
        scripts(argv[2])
    elif cmd == "prune-scripts" and len(argv) == 4:
        prune_scripts(argv[2], argv[3])
    elif cmd == "table":
        sys.stdout.write(table())
    elif cmd == "readme" and len(argv) == 4:
        text, a, b = readme_split(argv[2])
        new = text[:a] + "\n" + summary(open(argv[3]).read()) + text[b:]
        open(argv[2], "w", encoding="utf-8").write(new)
    elif cmd == "readme-check" and len(argv) == 4:
        text, a, b = readme_split(argv[2])
        if text[a:b].strip() != summary(open(argv[3]).read()).strip():
            sys.exit(1)
    else:
        die(__doc__)


if __name__ == "__main__":
    main(sys.argv)
