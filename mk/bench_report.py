#!/usr/bin/env python3
"""bench_report.py: issue 15's benchmark, from one run to bench.json, the table and docs/speed.md.

    bench_report.py assemble --figures F.jsonl --peers P.jsonl --out build/bench.json
                             [--load-before L] [--load-after L] [--seconds S]
        (mk/bench.sh) writes {"machine": {...}, "figures": [...], "peers": [...]}, fails
        when a required figure is missing, and prints the comparison table;
    bench_report.py whole NAME N -- COMMAND...
        (mk/bench.sh) times a whole process: one JSON figure line;
    bench_report.py table [build/bench.json]
        prints the table again;
    bench_report.py doc [build/bench.json [docs/speed.md]]
        (`make bench-doc`) rewrites the section of docs/speed.md between the markers
        <!-- speed:begin --> and <!-- speed:end --> from bench.json alone, so every
        number and ratio there comes from one run.
Standard library only (the machine's numpy version is asked of numpy when assembling)."""
import json
import os
import platform
import re
import subprocess
import sys

REQUIRED_FIGURES = [("float_oneshot", 7), ("float_oneshot", 1000), ("float_oneshot", 1000000),
                    ("float_many", 7),
                    ("exact_oneshot", 7), ("exact_oneshot", 1000), ("exact_oneshot", 1000000),
                    ("oracle_probs_40d", 1000000), ("cli_parse", 1000000),
                    ("cli_sample_float", 1000000),
                    ("limit_scalar", 1000000), ("limit_vector", 1000000),
                    ("limit_memory", 1000000),
                    ("pf_probs", 4096), ("pf_probs", 100000), ("pf_probs_old", 4096),
                    ("cli_probs", 100000), ("cli_sample", 100000), ("cli_check", 100000),
                    ("py_probs", 100000), ("py_sample", 100000), ("py_check", 100000)]
REQUIRED_PEERS = [("numpy_oneshot", 7), ("numpy_oneshot", 1000), ("numpy_oneshot", 1000000),
                  ("numpy_many", 7),
                  ("diffprivlib_oneshot", 7), ("diffprivlib_oneshot", 1000),
                  ("diffprivlib_oneshot", 1000000),
                  ("numpy_loadtxt_sample", 1000000)]

# What each figure is, for docs/speed.md (mk/bench.sh, stats/bench_speed.c, bench_peers.py).
DESCRIPTIONS = {
    "float_oneshot": "float path: em_weights_fixed_u (em_logweights + em_weights_fixed + the sum in one pass over blocks; its block loops built for SSE2 and AVX2, picked at load) + em_sample_fixed (prepare + one draw)",
    "float_many": "float path: one draw of 1000 from a cumulative table prepared once, in one em_sample_cumulative_many call (as the float sampler draws many)",
    "exact_oneshot": "exact sampler from the doubles, one draw without keeping a sampler: em_exact_sample_d (the same draw and bits as em_exact_new_d + em_exact_sample; its problem, epsilon and the sensitivity as rationals, built once)",
    "exact_oneshot_kept": "the same draw through a sampler built, used once and freed: em_exact_new_d + one em_exact_sample + em_exact_free",
    "exact_oneshot_q": "exact sampler from rationals: em_exact_new + one em_exact_sample + free",
    "oracle_probs_40d": "finite oracle: every candidate's probability to 40 digits",
    "pf_probs": "permute-and-flip's exact law: every probability and log-probability to 17 digits and as doubles (em_pfl_new over the problem's reader + em_pfl_round), u_i = -i/1000",
    "pf_probs_old": "the same by the O(n^2) brute force (Ziv on em_pf_pmf_brute_bounds, as `probs --variant pf` did before the law at scale), timed once",
    "cli_parse": "em_scn_read of 10^6 `label,utility` lines in memory (compact, as the CLI)",
    "cli_sample_float": "whole process: `expmech sample --sampler float --epsilon 1 -n 1 FILE`",
    "cli_probs": "whole process: `expmech probs --epsilon 1 FILE` (17 digits), FILE the doubles as hex floats",
    "cli_sample": "whole process: `expmech sample --epsilon 1 -n 1000 --seed 1 FILE` (exact draws)",
    "cli_check": "whole process: `expmech check --epsilon 1 --samples DRAWS FILE`, 10^5 draws of the float sampler",
    "py_probs": "Python: expmech.probs(u, 1) on a list of floats, as Decimals (in-process, module loaded)",
    "py_sample": "Python: expmech.sample(u, 1, 1000, seed=1) (in-process)",
    "py_check": "Python: expmech.check(draws, u, 1), the same 10^5 draws (in-process)",
    "limit_scalar": "limit: scalar exp pass (-O2, not vectorised), w = exp(u/2), sum",
    "limit_vector": "limit: the same pass through libmvec (%s on this CPU: AVX2 where there is one, "
                    "else SSE2)",
    "limit_vector_sse2": "limit: libmvec, baseline x86-64 (SSE2: the library's baseline build, run where AVX2 is missing)",
    "limit_vector_avx512": "limit: libmvec, AVX-512",
    "limit_memory": "limit: one read pass summing the array",
    "numpy_oneshot": "numpy: p = exp(u/2 - max), p /= sum, rng.choice(n, p=p)",
    "numpy_many": "numpy: rng.choice(n, size=10^6, p=p), per draw",
    "diffprivlib_oneshot": "diffprivlib's Exponential (reimplemented in numpy: not in Debian), construct + one draw",
    "numpy_loadtxt_sample": "whole process: a numpy script, numpy.loadtxt of the same CSV + one draw",
    "conform_full_numpy": "wall time: `expmech conform` over the whole battery (n: cases) against conformance/samplers/numpy_sampler.py (mk/bench_conform.py)",
    "conform_quick_numpy": "wall time: the same with --quick (n: the quick cases)",
    "conform_harness_case": "CPU time of the expmech process a case (the harness's own: the sampler is a child process), mean over the full run's cases",
}


def fmt_n(n):
    return {7: "7", 1000: "10^3", 10000: "10^4", 100000: "10^5", 1000000: "10^6"}.get(n, str(n))


def fmt_us(v):
    """microseconds, in the unit that reads best"""
    if v >= 1e6:
        return "%.2f s" % (v / 1e6)
    if v >= 1e3:
        return "%.3g ms" % (v / 1e3)
    return "%.3g µs" % v


def fmt_ratio(r):
    return ("%.0f×" if r >= 1000 else "%.3g×") % r


def lookup(data):
    table = {}
    for kind in ("figures", "peers"):
        for f in data[kind]:
            table[(f["name"], f["n"])] = f["value"]
    return table


def comparisons(data):
    """The issue's goals, each a row: (what, expmech figure, value, other figure or target,
    other value, ratio text, ratio, target text, met).  Ratios >= 1 read "times faster" for
    peers and "times the limit" for limits."""
    v = lookup(data)
    rows = []

    def row(what, mine, other, ratio_kind, target, met_fn):
        a = v.get(mine)
        b = v.get(other) if other else None
        if a is None or (other and b is None):
            return
        if ratio_kind == "speedup":      # other / expmech: how many times faster expmech is
            ratio = b / a
            text = "%s faster" % fmt_ratio(ratio) if ratio >= 1 else "%s slower" % fmt_ratio(1 / ratio)
        elif ratio_kind == "slowdown":   # expmech / other: how many times the other's time
            ratio = a / b
            text = "%s the time" % fmt_ratio(ratio)
        else:                            # an absolute target
            ratio = None
            text = ""
        rows.append({
            "what": what,
            "figure": "%s (n = %s)" % (mine[0], fmt_n(mine[1])), "value": a,
            "other": "%s (n = %s)" % (other[0], fmt_n(other[1])) if other else "",
            "other_value": b, "ratio_text": text, "ratio": ratio, "target": target,
            "met": None if met_fn is None else bool(met_fn(a, ratio)),
        })

    M = 1000000
    row("float one draw, 10^6: vs numpy", ("float_oneshot", M), ("numpy_oneshot", M),
        "speedup", "≥ 5× faster, ≤ 2 ms", lambda a, r: r >= 5 and a <= 2000)
    row("float one draw, 10^6: vs the vectorised limit", ("float_oneshot", M),
        ("limit_vector", M), "slowdown", "≤ 2× the limit", lambda a, r: r <= 2)
    row("float one draw, 10^6: vs diffprivlib", ("float_oneshot", M),
        ("diffprivlib_oneshot", M), "speedup", "", None)
    row("float one draw, 7: vs numpy", ("float_oneshot", 7), ("numpy_oneshot", 7), "speedup",
        "≤ 0.1 µs", lambda a, r: a <= 0.1)
    row("float one draw, 7: vs diffprivlib", ("float_oneshot", 7), ("diffprivlib_oneshot", 7),
        "speedup", "", None)
    row("float one draw, 10^3: vs numpy", ("float_oneshot", 1000), ("numpy_oneshot", 1000),
        "speedup", "", None)
    row("float many draws, 7: vs numpy's vectorised choice", ("float_many", 7),
        ("numpy_many", 7), "speedup", "≤ 0.01 µs, faster than numpy",
        lambda a, r: a <= 0.01 and r > 1)
    for n in (7, 1000, 10000, 100000, M):
        row("exact one draw, %s: vs float" % fmt_n(n), ("exact_oneshot", n),
            ("float_oneshot", n), "slowdown", "≤ 2× the float path", lambda a, r: r <= 2)
    for n in (7, 1000, M):
        row("exact one draw, %s: vs diffprivlib" % fmt_n(n), ("exact_oneshot", n),
            ("diffprivlib_oneshot", n), "speedup", "", None)
    row("exact probabilities of 10^6 candidates, 40 digits", ("oracle_probs_40d", M), None,
        None, "≤ 2 s", lambda a, r: a <= 2e6)
    row("permute-and-flip exact law, 4096: vs the O(n^2) brute force", ("pf_probs", 4096),
        ("pf_probs_old", 4096), "speedup", "", None)
    row("permute-and-flip exact law, 10^5 candidates, 17 digits", ("pf_probs", 100000), None,
        None, "≤ 10 s", lambda a, r: a <= 1e7)
    row("permute-and-flip exact law, 10^6 candidates, 17 digits", ("pf_probs", M), None,
        None, "≤ 2 min", lambda a, r: a <= 1.2e8)
    row("CLI: parse 10^6 lines", ("cli_parse", M), None, None, "≤ 0.2 s",
        lambda a, r: a <= 2e5)
    row("CLI: sample --sampler float -n 1, 10^6 lines: vs numpy.loadtxt script",
        ("cli_sample_float", M), ("numpy_loadtxt_sample", M), "speedup", "faster",
        lambda a, r: r > 1)
    for job in ("probs", "sample", "check"):
        row("Python %s, 10^5 floats: vs the command line" % job, ("py_" + job, 100000),
            ("cli_" + job, 100000), "slowdown", "≤ 1.2× the CLI", lambda a, r: r <= 1.2)
    row("limit: scalar exp pass vs vectorised", ("limit_scalar", M), ("limit_vector", M),
        "slowdown", "", None)
    for name, n in v:
        if name == "conform_full_numpy":
            row("conformance: the whole battery, numpy sampler", (name, n), None, None,
                "≤ 5 min", lambda a, r: a <= 300e6)
        elif name == "conform_quick_numpy":
            row("conformance: --quick, numpy sampler", (name, n), None, None, "≤ 30 s",
                lambda a, r: a <= 30e6)
        elif name == "conform_harness_case":
            row("conformance: harness time a case beyond the sampler's", (name, n), None, None,
                "≤ 50 ms", lambda a, r: a <= 50e3)
    return rows


def machine_info(args):
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpuinfo = f.read()
        m = re.search(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
        info["cpu"] = m.group(1).strip() if m else platform.processor()
        m = re.search(r"^flags\s*:\s*(.*)$", cpuinfo, re.M)
        flags = set(m.group(1).split()) if m else set()
    except OSError:
        info["cpu"], flags = platform.processor(), set()
    # the libmvec variant bench_speed's limit_vector picks (__builtin_cpu_supports)
    info["limit_vector_isa"] = "AVX2" if {"avx2", "fma"} <= flags else "SSE2"
    info["virtual"] = "hypervisor" in flags
    info["cores"] = os.cpu_count()
    info["kernel"] = platform.system() + " " + platform.release()
    cc = os.environ.get("CC", "gcc")
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, check=True)
        info["compiler"] = out.stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        info["compiler"] = cc
    try:
        info["glibc"] = os.confstr("CS_GNU_LIBC_VERSION")
    except (ValueError, OSError):
        info["glibc"] = platform.libc_ver()[1]
    try:
        import numpy  # Debian's python3-numpy: only to name its version
        info["numpy"] = numpy.__version__
    except ImportError:
        info["numpy"] = None
    info["python"] = platform.python_version()
    info["clock"] = os.environ.get("BENCH_CLOCK") or "cpu"
    info["load_before"] = args.get("--load-before", "")
    info["load_after"] = args.get("--load-after", "")
    if "--seconds" in args:
        info["bench_seconds"] = int(args["--seconds"])
    return info


def read_jsonl(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if set(d) != {"name", "value", "unit", "n"} or d["unit"] != "us":
                    raise SystemExit("bench: malformed figure line: %s" % line.strip())
                out.append(d)
    return out


def check(data):
    have = {(f["name"], f["n"]) for f in data["figures"]}
    havep = {(f["name"], f["n"]) for f in data["peers"]}
    missing = [k for k in REQUIRED_FIGURES if k not in have] + \
              [k for k in REQUIRED_PEERS if k not in havep]
    bad = [f for f in data["figures"] + data["peers"]
           if not isinstance(f["value"], (int, float)) or not f["value"] > 0]
    if missing or bad:
        for name, n in missing:
            sys.stderr.write("bench: figure %s (n = %d) is missing\n" % (name, n))
        for f in bad:
            sys.stderr.write("bench: figure %s (n = %d) has no positive value\n" % (f["name"], f["n"]))
        return False
    return True


def busy(machine):
    """the 1-minute load average against the cores, before and after"""
    try:
        loads = [float(machine[k].split()[0]) for k in ("load_before", "load_after")]
    except (KeyError, ValueError, IndexError):
        return None
    return max(loads) > 0.5 * (machine.get("cores") or 1)


def print_table(data, out=sys.stdout):
    m = data["machine"]
    out.write("machine: %s, %s cores, %s, %s, glibc %s, numpy %s (load %s before, %s after)\n"
              "clock: %s time, medians\n"
              % (m.get("cpu"), m.get("cores"), m.get("kernel"), m.get("compiler"),
                 m.get("glibc", "").replace("glibc ", ""), m.get("numpy"),
                 m.get("load_before"), m.get("load_after"),
                 "CPU" if m.get("clock") == "cpu" else "wall"))
    out.write("\n%-20s %-8s %12s\n" % ("figure", "n", "median"))
    for kind in ("figures", "peers"):
        for f in data[kind]:
            out.write("%-20s %-8s %12s\n" % (f["name"], fmt_n(f["n"]), fmt_us(f["value"])))
    out.write("\n%-58s %11s %11s  %-16s %-28s %s\n"
              % ("goal (issue 15)", "expmech", "other", "ratio", "target", "met"))
    for r in comparisons(data):
        met = "" if r["met"] is None else ("met" if r["met"] else "NOT MET")
        out.write("%-58s %11s %11s  %-16s %-28s %s\n"
                  % (r["what"], fmt_us(r["value"]),
                     fmt_us(r["other_value"]) if r["other_value"] is not None else "",
                     r["ratio_text"], r["target"], met))
    if busy(m):
        out.write("\nnote: the machine was busy (load average above half the cores): "
                  "timings are slower and noisier than on an idle machine\n")


def readme_section(data):
    m = data["machine"]
    lines = []
    clock = m.get("clock", "wall")
    lines.append("Measured by `make bench` in one run (`build/bench.json`; `make bench-doc` "
                 "rewrites this section from it), each figure in its own process, one at a "
                 "time: the median of several timed batches after a warm-up (whole processes: "
                 "the median of 5 runs after one), %s." %
                 ("in CPU time (user + system: on a shared machine wall time also counts the "
                  "time other processes hold the CPU; every figure is single-threaded, so on "
                  "an idle machine the two agree; `BENCH_CLOCK=wall make bench` measures wall "
                  "time)" if clock == "cpu" else "in wall time"))
    lines.append("")
    lines.append("Machine: %s, %s cores%s, %s, %s, %s, Python %s with numpy %s."
                 % (m.get("cpu"), m.get("cores"), " (a virtual machine)" if m.get("virtual") else "",
                    m.get("kernel"), m.get("compiler"), m.get("glibc"), m.get("python"),
                    m.get("numpy")))
    note = ("1-minute load average %s before the run and %s after" %
            (m.get("load_before", "?").split()[0] if m.get("load_before") else "?",
             m.get("load_after", "?").split()[0] if m.get("load_after") else "?"))
    if busy(m):
        lines.append("The machine was shared and busy during this run (%s, on %s cores): %s"
                     % (note, m.get("cores"),
                        "CPU time leaves out the turns other processes took on the CPU, not "
                        "their share of the caches and memory bandwidth, so the figures may be "
                        "somewhat slower than on an idle machine, expmech and its peers alike."
                        if clock == "cpu" else
                        "the figures are slower and noisier than on an idle machine, expmech "
                        "and its peers alike."))
    else:
        lines.append("The machine was quiet (%s)." % note)
    lines.append("")
    lines.append("| goal (issue 15) | expmech | compared with | ratio | target | met |")
    lines.append("|---|---|---|---|---|---|")
    for r in comparisons(data):
        met = "" if r["met"] is None else ("yes" if r["met"] else "**no**")
        other = ("%s: %s" % (r["other"], fmt_us(r["other_value"]))) if r["other"] else ""
        lines.append("| %s | %s | %s | %s | %s | %s |"
                     % (r["what"], fmt_us(r["value"]), other, r["ratio_text"], r["target"], met))
    lines.append("")
    ns = sorted({f["n"] for kind in ("figures", "peers") for f in data[kind]})
    lines.append("| figure | what | " + " | ".join("n = %s" % fmt_n(n) for n in ns) + " |")
    lines.append("|---|---|" + "---|" * len(ns))
    for kind in ("figures", "peers"):
        v = {(f["name"], f["n"]): f["value"] for f in data[kind]}
        for name in dict.fromkeys(f["name"] for f in data[kind]):
            cells = [fmt_us(v[(name, n)]) if (name, n) in v else "" for n in ns]
            what = DESCRIPTIONS.get(name, "")
            if "%s" in what:
                what = what % m.get("limit_vector_isa", "?")
            lines.append("| `%s` | %s | %s |" % (name, what, " | ".join(cells)))
    lines.append("")
    lines.append("Inputs: n = 7 the marital counts / 1000 (seed 000), otherwise u_i = −i/1000; "
                 "ε = 1, Δ = 1, the standard variant; `oracle_probs_40d` uses `bench_oracle`'s "
                 "u_i = ((7919 i) mod 1000003)/1000; the Python and CLI rows take 10^5 candidates "
                 "u_i = −i/1000 as doubles (the CLI's file holds them as hex floats). diffprivlib is not packaged in Debian, so "
                 "its `Exponential` mechanism is reimplemented step for step in numpy "
                 "(`stats/bench_peers.py`), checks and `secrets.SystemRandom` included. The "
                 "limit loops are `stats/limit_*.c`, compiled with their own flags "
                 "(`-ffast-math` only there, glibc's libmvec).")
    return "\n".join(lines) + "\n"


def rewrite_readme(data, path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    begin, end = "<!-- speed:begin -->", "<!-- speed:end -->"
    section = begin + "\n" + readme_section(data) + end
    if begin in text and end in text:
        a, b = text.index(begin), text.index(end) + len(end)
        text = text[:a] + section + text[b:]
    else:
        block = "## Speed\n\n" + section + "\n\n"
        anchor = "## The library\n"
        if anchor in text:
            text = text.replace(anchor, block + anchor, 1)
        else:
            text = text.rstrip("\n") + "\n\n" + block
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def whole(name, n, cmd):
    """One figure of a whole process: 5 runs after a warm-up one (which also puts the file
    in the page cache), median of its CPU time, user + system, from getrusage (or of the
    wall time with BENCH_CLOCK=wall), as bench_speed measures in-process figures."""
    which = os.environ.get("BENCH_CLOCK") or "cpu"
    if which not in ("cpu", "wall"):
        raise SystemExit("bench: BENCH_CLOCK must be cpu or wall, not '%s'" % which)
    import resource
    import time
    times = []
    for r in range(6):
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        wall = time.perf_counter() - t0
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0 or not p.stdout.strip():
            sys.stderr.write("bench: %s: '%s' %s:\n%s" % (name, " ".join(cmd),
                             "failed (exit %d)" % p.returncode if p.returncode else "printed nothing",
                             p.stderr.decode(errors="replace")))
            return 1
        cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
        if r:
            times.append((cpu if which == "cpu" else wall) * 1e6)
    times.sort()
    sys.stderr.write("  whole: %-19s n = %-8d median %.4g us (%s) of 5 runs (min %.4g, max %.4g)\n"
                     % (name, n, times[2], "CPU" if which == "cpu" else "wall", times[0], times[-1]))
    print(json.dumps({"name": name, "value": round(times[2], 1), "unit": "us", "n": n}))
    return 0


def parse_opts(argv):
    opts = {}
    i = 0
    while i < len(argv):
        if not argv[i].startswith("--") or i + 1 >= len(argv):
            raise SystemExit("bench_report: bad argument '%s'" % argv[i])
        opts[argv[i]] = argv[i + 1]
        i += 2
    return opts


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    cmd = argv[1]
    if cmd == "whole":
        if len(argv) < 6 or argv[4] != "--" or not argv[3].isdigit():
            sys.stderr.write(__doc__)
            return 2
        return whole(argv[2], int(argv[3]), argv[5:])
    if cmd == "assemble":
        opts = parse_opts(argv[2:])
        data = {"machine": machine_info(opts), "figures": read_jsonl(opts["--figures"]),
                "peers": read_jsonl(opts["--peers"])}
        ok = check(data)
        with open(opts["--out"], "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        print()
        print_table(data)
        print("\nbench: wrote %s" % opts["--out"])
        return 0 if ok else 1
    path = argv[2] if len(argv) > 2 else "build/bench.json"
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not check(data):
        return 1
    if cmd == "table":
        print_table(data)
        return 0
    if cmd == "doc":
        doc = argv[3] if len(argv) > 3 else "docs/speed.md"
        rewrite_readme(data, doc)
        print("bench: %s rewritten from %s" % (doc, path))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
