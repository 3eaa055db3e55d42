#!/usr/bin/python3
"""make conformance / make conformance-quick: every sampler of conformance/samplers/ judged
by the conformance suite, and what each must get:

- the correct samplers (numpy_sampler.py, and c_sampler over the public API) pass every
  case run;
- each planted one (planted/*.py, its mistake in EXPECT) is rejected on at least one case
  and diagnosed as its own mistake (the suite's suspects are exactly that mistake);
  crash_on_underflow crashes (and fails nothing else), value_not_index writes malformed
  output that the harness recognises as values written for labels.

    mk/conformance.py [--quick] [--build DIR] [--jobs N]

Full: every sampler runs as a program through `expmech conform` (the protocol).  Quick (the
quick cases, one run of 10^4 draws): the two correct samplers through `expmech conform
--quick`, the planted ones in a worker process through expmech.conform (the same library
harness, without a Python start per case).  --jobs samplers (2) at a time, each in a
process of its own.  Reports: BUILD/conformance/*.json.
Prints the verdict table of every sampler; exit 1 when a sampler does not get what it must.
"""
import argparse
import concurrent.futures
import glob
import importlib.util
import json
import os
import subprocess
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLERS = os.path.join(ROOT, "conformance", "samplers")
VERDICTS = ["pass", "reject", "impossible draw", "crash", "timeout", "malformed output",
            "accepted invalid input", "skipped", "undecided", "bad case file"]
FAILED = {"reject", "impossible draw", "crash", "timeout", "malformed output",
          "accepted invalid input"}
PY = "/usr/bin/python3"


def planted():
    out = []
    for path in sorted(glob.glob(os.path.join(SAMPLERS, "planted", "*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        expect = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("EXPECT = "):
                    expect = line.split("=", 1)[1].strip().strip('"')
        out.append((name, path, expect))
    return out


def run_cli(expmech, name, argv, quick, out_dir):
    report = os.path.join(out_dir, name + ".json")
    cmd = [expmech, "conform", "--sampler", " ".join(argv), "--cases",
           os.path.join(ROOT, "conformance", "cases"), "--report", report]
    if quick:
        cmd.append("--quick")
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out_dir, name + ".txt"), "w", encoding="utf-8") as f:
        f.write(p.stdout + p.stderr)
    return name, report, p.returncode, time.time() - t


def run_inprocess(name, path, quick, out_dir):
    import expmech
    spec = importlib.util.spec_from_file_location("planted_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    report = os.path.join(out_dir, name + ".json")
    t = time.time()
    r = expmech.conform(mod.sample, quick=quick, cases=os.path.join(ROOT, "conformance", "cases"),
                        report=report)
    with open(os.path.join(out_dir, name + ".txt"), "w", encoding="utf-8") as f:
        f.write(r.table)
    return name, report, r.exit_status, time.time() - t


def judge(name, expect, rep, rc):
    """What the sampler got against what it must get: (ok, why)."""
    cases = rep["cases"]
    failed = [c for c in cases if c["verdict"] in FAILED]
    if expect is None:  # a correct sampler
        if rc != 0:
            bad = [f'{c["id"]} {c["verdict"]}' for c in cases if c["verdict"] != "pass"
                   and c["verdict"] != "skipped"]
            return False, "expected every case to pass; " + ", ".join(bad[:6])
        return True, "passes every case"
    if expect == "crash_on_underflow":
        crashes = [c for c in cases if c["verdict"] == "crash"]
        others = [c for c in failed if c["verdict"] != "crash"]
        if not crashes or others:
            return False, "expected crashes only"
        return True, "crashes on " + ", ".join(c["id"] for c in crashes)
    if expect == "value_not_index":
        bad = [c for c in cases if c["verdict"] == "malformed output"
               and "a value written where a label was due" in c["message"]]
        if not bad:
            return False, "expected malformed output naming values written for labels"
        return True, f"malformed output on {len(bad)} cases (values for labels)"
    if not failed:
        return False, "expected a rejected case"
    if rep["suspects"] != [expect]:
        return False, f"diagnosed {rep['suspects']} instead of [{expect}]"
    return True, f"rejected on {len(failed)} cases, diagnosed {expect}"


def main():
    warnings.filterwarnings("ignore")  # the planted samplers divide by 0 on purpose
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--build", default="build")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    expmech = os.path.join(build, "expmech")
    out_dir = os.path.join(build, "conformance", "quick" if a.quick else "full")
    os.makedirs(out_dir, exist_ok=True)
    correct = [("numpy", [PY, os.path.join(SAMPLERS, "numpy_sampler.py")], None),
               ("c", [os.path.join(build, "conformance", "c_sampler")], None)]
    bugs = planted()
    expect = {n: e for n, _, e in correct}
    expect.update({n: e for n, _, e in bugs})
    t0 = time.time()
    results = []
    # --jobs workers (processes), each sampler one task, the correct ones (the longest) first
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(run_cli, expmech, n, argv, a.quick, out_dir) for n, argv, _ in correct]
        if a.quick:
            futs += [ex.submit(run_inprocess, n, p, True, out_dir) for n, p, _ in bugs]
        else:
            futs += [ex.submit(run_cli, expmech, n, [PY, p], False, out_dir) for n, p, _ in bugs]
        results += [f.result() for f in futs]
    order = [n for n, _, _ in correct] + [n for n, _, _ in bugs]
    results.sort(key=lambda r: order.index(r[0]))
    short = ["pass", "reject", "imposs", "crash", "timeout", "malf", "accinv", "skip", "undec"]
    print(f"{'sampler':<20} " + " ".join(f"{s:>6}" for s in short) +
          f" {'s':>6}  verdict of make conformance")
    ok_all = True
    for name, report, rc, secs in results:
        with open(report, encoding="utf-8") as f:
            rep = json.load(f)
        ok, why = judge(name, expect[name], rep, rc)
        ok_all &= ok
        cnt = rep["counts"]
        print(f"{name:<20} " + " ".join(f"{cnt[v]:>6}" for v in VERDICTS[:9]) +
              f" {secs:>6.1f}  {'ok' if ok else 'WRONG'}: {why}")
        if rep["diagnosis"]:
            print(f"{'':<20} {rep['diagnosis']}")
    print(f"conformance{'-quick' if a.quick else ''}: {len(results)} samplers in "
          f"{time.time() - t0:.0f} s; reports in {out_dir}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
