"""The ctypes structures of python/expmech/_lib.py against the C headers: every field's
offset, and the size of each structure the binding allocates or indexes, as the compiler
lays them out (a header change the binding does not mirror fails here, not in a user's
process)."""
import ctypes
import os
import subprocess

import pytest

from expmech import _lib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# ctypes class -> (C type, whether the binding allocates it or indexes an array of it: then
# the whole size must match, else only the fields it reads)
STRUCTS = {
    _lib.Error: ("em_error", True),
    _lib.Opts: ("em_opts", True),
    _lib.Prob: ("em_prob", True),
    _lib.SampleOpts: ("em_sample_opts", True),
    _lib.ScnInfo: ("em_scn_info", True),
    _lib.ScnSpec: ("em_scn_spec", True),
    _lib.Draw: ("em_draw", True),
    _lib.Draws: ("em_draws", True),
    _lib.CheckOpts: ("em_check_opts", True),
    _lib.CheckRow: ("em_check_row", True),
    _lib.CheckResult: ("em_check_result", False),
    _lib.CompareOpts: ("em_compare_opts", True),
    _lib.CompareResult: ("em_compare_result", False),
    _lib.AuditResult: ("em_audit_result", False),
    _lib.UtilityResult: ("em_utility_result", False),
    _lib.UtilityOpts: ("em_utility_opts", True),
    _lib.DiagnosisRow: ("em_diagnosis_row", True),
    _lib.Diagnosis: ("em_diagnosis", True),
    _lib.Case: ("em_case", True),
    _lib.RunOutput: ("em_run_output", True),
    _lib.ConformOpts: ("em_conform_opts", True),
    _lib.ConformCase: ("em_conform_case", True),
    _lib.ConformResult: ("em_conform_result", True),
}


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory):
    d = tmp_path_factory.mktemp("layout")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "expmech.h"', 'int main(void) {']
    for cls, (ctype, _) in STRUCTS.items():
        lines.append(f'printf("{ctype} sizeof %zu\\n", sizeof({ctype}));')
        for name, *_ in cls._fields_:
            lines.append(f'printf("{ctype} {name} %zu\\n", offsetof({ctype}, {name}));')
    lines.append("return 0; }")
    src = d / "layout.c"
    src.write_text("\n".join(lines))
    exe = d / "layout"
    inc = os.path.join(ROOT, "src")
    subprocess.run(["gcc", "-std=c11", "-D_GNU_SOURCE", f"-I{inc}/include", f"-I{inc}", f"-I{ROOT}",
                    str(src), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {(a, b): int(c) for a, b, c in (l.split() for l in out.splitlines())}


@pytest.mark.parametrize("cls", list(STRUCTS), ids=lambda c: c.__name__)
def test_structure_matches_the_header(cls, c_layout):
    ctype, whole = STRUCTS[cls]
    for name, *_ in cls._fields_:
        assert getattr(cls, name).offset == c_layout[(ctype, name)], f"{ctype}.{name}"
    if whole:
        assert ctypes.sizeof(cls) == c_layout[(ctype, "sizeof")], f"sizeof({ctype})"
