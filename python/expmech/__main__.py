"""python3 -m expmech conform --sampler 'CMD ARGS' [...]: the conformance suite, with the
options of `expmech conform` (expmech(1)); the harness is the library's."""
import argparse
import os
import shutil
import subprocess
import sys

from . import _conform


def _figures(report_json: str, out_dir: str) -> int:
    """--report-svg: observed against expected for each failed case, drawn by
    `expmech plot` (the program beside the library, $EXPMECH_BIN, or on PATH)."""
    import json
    exe = os.environ.get("EXPMECH_BIN") or shutil.which("expmech")
    if not exe:
        here = os.path.dirname(os.path.abspath(__file__))
        cand = os.path.join(here, "..", "..", "build", "expmech")
        exe = cand if os.path.exists(cand) else None
    if not exe:
        sys.stderr.write("expmech conform: --report-svg needs the expmech program (set EXPMECH_BIN)\n")
        return 2
    os.makedirs(out_dir, exist_ok=True)
    with open(report_json, encoding="utf-8") as f:
        rep = json.load(f)
    rc = 0
    for c in rep["cases"]:
        if c["verdict"] not in ("reject", "impossible draw") or not c["check"]:
            continue
        csv = os.path.join(out_dir, c["id"] + ".csv")
        with open(csv, "w", encoding="utf-8") as f:
            f.write("cell,expected,observed\n")
            for k, cell in enumerate(c["check"]["cells"]):
                name = str(k) if "first" in cell else f'"[{cell["lo"]}, {cell["hi"]})"'
                f.write(f'{name},{cell["expected"]},{cell["observed"]}\n')
            if c["check"]["outside"]:
                f.write(f'outside,0,{c["check"]["outside"]}\n')
        svg = os.path.join(out_dir, c["id"] + ".svg")
        r = subprocess.run([exe, "plot", "--x", "cell", "--y", "expected,observed", "--style",
                            "bars", "--title", f'{c["id"]}: {c["verdict"]}', "--xlabel", "cell",
                            "--ylabel", "draws", "--output", svg, csv])
        os.remove(csv)
        rc = rc or (3 if r.returncode else 0)
    return rc


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "conform":
        sys.stderr.write("usage: python3 -m expmech conform --sampler 'CMD ARGS' [options]\n")
        return 2
    p = argparse.ArgumentParser(prog="python3 -m expmech conform",
                                description="Run a sampler on every case of the conformance "
                                            "battery (expmech(1), expmech conform).")
    p.add_argument("--sampler", required=True, help="the sampler program and its first arguments")
    p.add_argument("--kinds", help="comma-separated: " + ", ".join(_conform.KINDS))
    p.add_argument("--quick", action="store_true", help="the quick cases, one run of 10^4 draws")
    p.add_argument("--cases", help="a directory of case files, or one file")
    p.add_argument("--max-draws", type=int, default=10 ** 6)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--report", help="the JSON report")
    p.add_argument("--report-svg", help="a directory for the figures of failed cases")
    a = p.parse_args(argv[1:])
    kinds = a.kinds.split(",") if a.kinds else None
    report = a.report
    if a.report_svg and not report:
        report = os.path.join(a.report_svg, "report.json")
        os.makedirs(a.report_svg, exist_ok=True)
    try:
        r = _conform.conform(a.sampler, kinds=kinds, quick=a.quick, max_draws=a.max_draws,
                             cases=a.cases, timeout=a.timeout, seed=a.seed, report=report)
    except (ValueError, TypeError, OSError) as e:
        sys.stderr.write(f"expmech conform: {e}\n")
        return 2
    sys.stdout.write(r.table)
    rc = r.exit_status
    if a.report_svg:
        rc = _figures(report, a.report_svg) or rc
    return rc


if __name__ == "__main__":
    sys.exit(main())
