"""pytest tests of expmech.conform and of the diagnosis in expmech.check: a case reaches the
sampler with its exact numbers; the reference sampler passes; a planted bug is rejected and
named; skips, refusals and exceptions get their verdicts; a command speaks the protocol;
python3 -m expmech conform; check() and `expmech check` name the same mistake."""
import math
import os
import shutil
import subprocess
import sys
from fractions import Fraction

import pytest

import expmech

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CASES = os.path.join(ROOT, "conformance", "cases")
SAMPLERS = os.path.join(ROOT, "conformance", "samplers")
EXE = os.environ.get("EXPMECH_BIN", os.path.join(ROOT, "build", "expmech"))
sys.path.insert(0, SAMPLERS)
numpy_sampler = pytest.importorskip("numpy_sampler")


def battery(tmp_path, *ids):
    d = tmp_path / "cases"
    d.mkdir(parents=True)
    for i in ids:
        shutil.copy(os.path.join(CASES, i + ".json"), d)
    return str(d)


def test_a_case_reaches_the_sampler_exactly(tmp_path):
    seen = {}

    def spy(case, n, seed):
        seen[case.id] = case
        raise NotImplementedError("only looking")

    r = expmech.conform(spy, cases=battery(tmp_path, "T03", "T21", "T59", "T68", "T76"))
    assert r.counts["skipped"] == 5 and bool(r)
    t03 = seen["T03"]
    assert t03.kind == "finite" and t03.labels == ["a", "b", "c", "d", "e"]
    assert t03.utilities == [2, -math.inf, 1, -math.inf, 0]
    assert t03.epsilon == 1 and t03.sensitivity == 1 and t03.variant == "standard"
    assert "eps_not_halved" in t03.catches
    assert seen["T21"].utilities[0] == Fraction(3, 4)       # 0x1.8p-1
    q = seen["T59"]
    assert q.kind == "quantile" and q.alpha == Fraction(1, 2) and q.bounds == (0, 25)
    assert q.data[:3] == [1, 3, 4] and q.sensitivity == 1
    assert q.pieces[0] == (0, 1, Fraction(-5), 0)            # -|0 - 10/2| on [0, 1]
    lap = seen["T68"]
    assert lap.f == Fraction(7, 2) and lap.pieces[0][:2] == (-math.inf, Fraction(7, 2))
    assert seen["T76"].expect == "error" and math.isnan(seen["T76"].utilities[1])


def test_the_reference_sampler_passes(tmp_path):
    r = expmech.conform(numpy_sampler.sample,
                        cases=battery(tmp_path, "T01", "T31", "T36", "T46", "T67", "T73"))
    assert r, r.table
    assert not r.failures and r.counts["pass"] == 6
    assert "6 cases: 6 pass" in str(r)


def test_a_planted_bug_is_rejected_and_named(tmp_path):
    class NotHalved(numpy_sampler.Sampler):
        def coef(self, case):
            return case.epsilon / case.sensitivity

    r = expmech.conform(NotHalved(), cases=battery(tmp_path, "T07", "T19", "T68"))
    assert not r
    assert [c.id for c in r.failures] == ["T07", "T68"]
    t07 = r.failures[0]
    assert t07.verdict == "reject" and t07.mistake == "eps_not_halved"
    assert t07.diagnosis.startswith("the draws fit exp(ε·u/Δ): the factor 1/2 is missing (p = ")
    assert r.suspects == ["eps_not_halved"]
    assert "T07 rejected: the draws fit exp(ε·u/Δ): the factor 1/2 is missing" in r.table


def test_refusals_and_exceptions(tmp_path):
    cases = battery(tmp_path, "T01", "T76")

    def refuses(case, n, seed):
        raise ValueError("no")

    r = expmech.conform(refuses, cases=cases)
    v = {c.id: c for c in r.cases}
    assert v["T01"].verdict == "crash" and "refused: no" in v["T01"].stderr
    assert v["T76"].verdict == "pass" and v["T76"].message.startswith("refused, as it must")

    def raises(case, n, seed):
        return 1 / 0

    r = expmech.conform(raises, cases=cases)
    assert all(c.verdict == "crash" for c in r.cases)
    assert "ZeroDivisionError" in r.cases[0].stderr

    def accepts(case, n, seed):
        return [0] * n

    r = expmech.conform(accepts, cases=cases)
    assert {c.id: c.verdict for c in r.cases}["T76"] == "accepted invalid input"

    def short(case, n, seed):
        return [0] * (n - 1)

    r = expmech.conform(short, cases=battery(tmp_path / "x", "T01"))
    assert r.cases[0].verdict == "malformed output"
    assert r.cases[0].message == "9999 lines where 10000 draws were asked for"


def test_a_command_sampler_and_python_m(tmp_path):
    c_sampler = os.path.join(ROOT, "build", "conformance", "c_sampler")
    if not os.path.exists(c_sampler):
        pytest.skip("build/conformance/c_sampler not built")
    one = os.path.join(CASES, "T03.json")
    r = expmech.conform(c_sampler, cases=one)
    assert r and r.cases[0].verdict == "pass"
    r = expmech.conform([c_sampler], cases=one)
    assert r
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    p = subprocess.run([sys.executable, "-m", "expmech", "conform", "--sampler", c_sampler,
                        "--cases", one, "--report", str(tmp_path / "r.json")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "T03   finite      pass" in p.stdout
    assert '"schema": "expmech-conformance-report-1"' in (tmp_path / "r.json").read_text()
    p = subprocess.run([sys.executable, "-m", "expmech", "conform", "--sampler", "x",
                        "--kinds", "nope"], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "unknown kind 'nope'" in p.stderr


def test_figures_of_a_rejected_case_as_expmech_conform_draws_them(tmp_path):
    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    planted = [sys.executable, os.path.join(SAMPLERS, "planted", "eps_not_halved.py")]
    one = os.path.join(CASES, "T07.json")
    r = expmech.conform(planted, cases=one, figures=str(tmp_path / "svg"))
    assert not r and r.cases[0].verdict == "reject" and r.figures_error is None
    assert (tmp_path / "svg" / "T07.svg").read_text().lstrip().startswith("<?xml")
    assert not (tmp_path / "svg" / "T07.csv").exists()  # the table drawn is not left behind
    (tmp_path / "file").write_text("")
    r = expmech.conform(planted, cases=one, figures=str(tmp_path / "file"))
    assert not r and r.figures_error == "no figure for T07"


def test_check_names_the_mistake_as_the_command_line_does(tmp_path):
    u = [0, -1, -2.5, -4, -7]
    draws = expmech.sample([str(x) for x in u], 2, 20000, seed=5)  # eps 2: exp(u), not exp(u/2)
    res = expmech.check(draws, [str(x) for x in u], 1)
    assert not res and res.mistake == "eps_not_halved" and res.mistake_p > 1e-3
    assert "the factor 1/2 is missing" in str(res)
    scn = tmp_path / "s.csv"
    scn.write_text("".join(f"c{i},{x}\n" for i, x in enumerate(u)))
    (tmp_path / "d.txt").write_text("".join(f"{d}\n" for d in draws))
    p = subprocess.run([EXE, "check", "--epsilon", "1", "--samples-are", "indices", "--samples",
                        str(tmp_path / "d.txt"), str(scn)], capture_output=True, text=True)
    assert p.returncode == 1
    assert f"diagnosis: {res.diagnosis}\n" in p.stdout
    ok = expmech.check(expmech.sample([str(x) for x in u], 1, 5000, seed=6), [str(x) for x in u], 1)
    assert ok and ok.diagnosis is None and str(ok).startswith("pass at alpha = 1e-06")


def test_the_readme_lists_every_case_as_the_battery_has_it():
    import glob
    import json
    rows = {}
    with open(os.path.join(ROOT, "conformance", "README.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("| T"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                rows[cells[0]] = cells
    files = sorted(glob.glob(os.path.join(CASES, "*.json")))
    assert len(files) >= 60 and len(rows) == len(files)
    for path in files:
        with open(path, encoding="utf-8") as f:
            c = json.load(f)
        cat = (", ".join(x["mistake"] for x in c["catches"]) if c["expect"] == "law"
               else "(must be refused)")
        assert rows[c["id"]] == [c["id"], c["kind"], "yes" if c["quick"] else "",
                                 c["title"].replace("|", "/"), cat], c["id"]


def test_widened_bounds_draw_the_impossible(tmp_path):
    """T63's bounds are 1e-6 wide: a quantile that widens them draws outside R."""
    import random

    def widened(case, n, seed):
        lo, hi = case.bounds
        rng = random.Random(seed)
        return [float(lo) - 1e-3 + rng.random() * (float(hi - lo) + 2e-3) for _ in range(n)]

    r = expmech.conform(widened, cases=os.path.join(CASES, "T63.json"))
    c = r.cases[0]
    assert c.verdict == "impossible draw" and "outside R" in c.message


def test_the_mistakes_are_the_librarys():
    from expmech import _conform
    from expmech import _lib
    from expmech._lib import lib
    assert _conform.MISTAKES == tuple(lib.em_conform_name(_lib.NAME_MISTAKE, m).decode()
                                      for m in range(len(_conform.MISTAKES)))
    assert lib.em_conform_name(_lib.NAME_MISTAKE, len(_conform.MISTAKES)) is None
    assert _conform.KINDS == tuple(lib.em_conform_name(_lib.NAME_KIND, k).decode() for k in range(6))
