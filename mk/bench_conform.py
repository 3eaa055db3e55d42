#!/usr/bin/python3
"""bench_conform.py BUILD: the conformance suite's figures for make bench (mk/bench.sh), one
JSON figure line each (mk/bench_report.py's format; microseconds of wall time, the suite
runs one sampler process at a time):

- conform_full_numpy   the whole battery against the numpy reference sampler (n: cases);
- conform_quick_numpy  --quick (n: quick cases);
- conform_harness_case the harness's own time a case beyond the sampler's: the CPU time of
                       the expmech process on the case (the sampler is a child process, not
                       counted), mean over the full run's cases (reading the case, its law and
                       the mistakes' laws, reading and judging the draws); the median and the
                       slowest cases go to standard error.
The run's detail (CPU time too, the slowest cases) goes to standard error."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.environ.get("PYTHON", "/usr/bin/python3")


def run(build, quick, report):
    cmd = [os.path.join(build, "expmech"), "conform", "--sampler",
           PY + " " + os.path.join(ROOT, "conformance", "samplers", "numpy_sampler.py"),
           "--cases", os.path.join(ROOT, "conformance", "cases"), "--report", report]
    if quick:
        cmd.append("--quick")
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    if p.returncode != 0:
        sys.stderr.write("bench: expmech conform%s failed (exit %d):\n%s%s" %
                         (" --quick" if quick else "", p.returncode, p.stdout[-2000:], p.stderr))
        sys.exit(1)
    with open(report, encoding="utf-8") as f:
        rep = json.load(f)
    return wall, cpu, rep


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    with tempfile.TemporaryDirectory() as d:
        wall, cpu, rep = run(build, False, os.path.join(d, "full.json"))
        n = len(rep["cases"])
        harness = sorted(c["harness_cpu_seconds"] for c in rep["cases"])
        slow = sorted(rep["cases"], key=lambda c: -c["harness_cpu_seconds"])[:5]
        sys.stderr.write("  conform: full battery, %d cases: %.1f s wall, %.1f s CPU (expmech and "
                         "the sampler); the harness's CPU a case: mean %.1f ms, median %.1f ms, "
                         "%d cases above 50 ms, the slowest %s\n"
                         % (n, wall, cpu, 1e3 * sum(harness) / n, 1e3 * harness[n // 2],
                            sum(h > 0.05 for h in harness),
                            ", ".join("%s %.0f ms" % (c["id"], 1e3 * c["harness_cpu_seconds"])
                                      for c in slow)))
        print(json.dumps({"name": "conform_full_numpy", "value": round(wall * 1e6, 1),
                          "unit": "us", "n": n}))
        print(json.dumps({"name": "conform_harness_case", "value": round(1e6 * sum(harness) / n, 1),
                          "unit": "us", "n": n}))
        qwall, qcpu, qrep = run(build, True, os.path.join(d, "quick.json"))
        sys.stderr.write("  conform: --quick, %d cases: %.1f s wall, %.1f s CPU\n"
                         % (len(qrep["cases"]), qwall, qcpu))
        print(json.dumps({"name": "conform_quick_numpy", "value": round(qwall * 1e6, 1),
                          "unit": "us", "n": len(qrep["cases"])}))


if __name__ == "__main__":
    main()
