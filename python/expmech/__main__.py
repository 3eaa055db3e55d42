"""python3 -m expmech conform --sampler 'CMD ARGS' [...]: the conformance suite, with the
options of `expmech conform` (expmech(1)); the harness is the library's."""
import argparse
import sys

from . import _conform


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
    try:
        r = _conform.conform(a.sampler, kinds=kinds, quick=a.quick, max_draws=a.max_draws,
                             cases=a.cases, timeout=a.timeout, seed=a.seed, report=a.report,
                             figures=a.report_svg)
    except (ValueError, TypeError, OSError) as e:
        sys.stderr.write(f"expmech conform: {e}\n")
        return 2
    sys.stdout.write(r.table)
    if r.figures_error:  # as `expmech conform` says it
        sys.stderr.write(f"expmech conform: --report-svg {a.report_svg}: {r.figures_error}\n")
        return r.exit_status or 3
    return r.exit_status


if __name__ == "__main__":
    sys.exit(main())
