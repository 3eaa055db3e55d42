#!/usr/bin/env bash
# make install-check: the package as a user receives it.
#  1. make install PREFIX=<tmp>: build examples/ with only that tree on PKG_CONFIG_PATH
#     (shared, then static), run it, compare its probabilities with independent values.
#  2. make install DESTDIR=<tmp2> PREFIX=/usr/local: every file lands under DESTDIR, the
#     .pc names /usr/local; make uninstall with the same variables leaves no file.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
top=$(mktemp -d); trap 'rm -rf "$top"' EXIT
fail() { echo "install-check: FAIL: $*" >&2; exit 1; }
hv() { sed -nE "s/^#define EM_VERSION_$1 ([0-9]+)$/\1/p" src/include/expmech.h; }
version=$(hv MAJOR).$(hv MINOR).$(hv PATCH)

# ---------------------------------------------------------------- 1. PREFIX
prefix=$top/prefix
make --no-print-directory -s install PREFIX="$prefix" B="$B" >/dev/null
for f in bin/expmech lib/libexpmech.a lib/libexpmech.so.$version lib/libexpmech.so.$(hv MAJOR) \
         lib/libexpmech.so lib/pkgconfig/expmech.pc include/expmech/expmech.h \
         include/expmech/em_base.h share/man/man1/expmech.1 share/man/man3/expmech.3; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ "$("$prefix/bin/expmech" --version)" = "expmech $version" ] || fail "installed expmech --version"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --cflags expmech | xargs)" = "-I$prefix/include/expmech" ] || fail "pkg-config --cflags: $(pkg-config --cflags expmech)"
got=$(pkg-config --modversion expmech)
[ "$got" = "$version" ] || fail "pkg-config --modversion expmech is '$got', header says $version"

# The example sees the installed tree only: a copy outside the checkout, no -I into src/.
ex=$top/example; mkdir "$ex"; cp examples/probabilities.c examples/check_sampler.c examples/Makefile "$ex/"
check_output() {  # $1: output of the example
  echo "$1" | grep -qx "libexpmech $version (header $version)" || fail "version line: $(echo "$1" | head -1)"
  echo "$1" | awk '
    # Independent values (seed 000, computed outside expmech); the float path is within
    # a few ulps, so 1e-12 absolute is a real bound, not a formality.
    /^p Never-married /      { nm = $3 }
    /^p Married-civ-spouse / { mc = $3 }
    /^p /                    { s += $3; n++ }
    /^draw /                 { d++ }
    END {
      e1 = nm - 0.10388931391755681; e2 = mc - 0.8887589426578778
      if (e1 < 0) e1 = -e1; if (e2 < 0) e2 = -e2
      ok = n == 7 && d == 5 && e1 < 1e-12 && e2 < 1e-12 && s > 1 - 1e-12 && s < 1 + 1e-12
      printf "install-check: p(Never-married) err %.2g, p(Married-civ-spouse) err %.2g, %d draws\n", e1, e2, d
      exit ok ? 0 : 1
    }' || fail "example output:
$1"
}
make --no-print-directory -s -C "$ex" >/dev/null
deps=$(LD_LIBRARY_PATH=$prefix/lib ldd "$ex/probabilities")
grep -q "libexpmech.so.$(hv MAJOR) => $prefix/lib/" <<<"$deps" \
  || fail "example not linked against the installed libexpmech.so.$(hv MAJOR): $deps"
out_shared=$(LD_LIBRARY_PATH=$prefix/lib "$ex/probabilities") || fail "example (shared) exited $?"
check_output "$out_shared"
# A user's own sampler checked against the exact law: the correct one passes, the broken one
# (exp(eps u / delta) for a non-monotone score) is rejected and diagnosed.  P(3) =
# 1 / (1 + 2 (e^-1/4 + e^-1/2 + e^-3/4)) (rank-distance scores 0, -2, -4, -6, eps 1/2, Delta 2),
# computed outside expmech (python3 math.exp).
out_chk=$(LD_LIBRARY_PATH=$prefix/lib "$ex/check_sampler") || fail "check_sampler (correct) exited $?: $out_chk"
grep -qx 'P(3) = 0.212071' <<<"$out_chk" || fail "check_sampler probabilities: $out_chk"
grep -q '^float sampler: pass ' <<<"$out_chk" || fail "check_sampler (correct): $out_chk"
rc=0; out_bad=$(LD_LIBRARY_PATH=$prefix/lib "$ex/check_sampler" broken) || rc=$?
[ $rc -eq 1 ] && grep -q '^broken sampler: reject ' <<<"$out_bad" &&
  grep -q '^diagnosis: the draws fit exp(ε·u/Δ): the factor 1/2 is missing' <<<"$out_bad" || fail "check_sampler broken (exit $rc): $out_bad"
make --no-print-directory -s -C "$ex" clean
make --no-print-directory -s -C "$ex" STATIC=1 >/dev/null
deps=$(ldd "$ex/probabilities")
if grep -q libexpmech <<<"$deps"; then fail "STATIC=1 example still needs libexpmech.so"; fi
out_static=$("$ex/probabilities") || fail "example (static) exited $?"
[ "$out_static" = "$out_shared" ] || fail "static and shared examples differ"
# The EXAMPLE of expmech(3) compiles and runs against the same tree, so the page cannot drift
# from the API.
awk '/^\.SH EXAMPLE/{e=1} e&&/^#include <expmech.h>/{on=1} on&&/^\.fi/{exit} on{print}' man/expmech.3 \
  | sed 's/\\e/\\/g; s/\\-/-/g' > "$ex/man3.c"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$ex/man3" "$ex/man3.c" $(pkg-config --cflags --libs expmech) \
  || fail "the example of expmech(3) does not compile"
out_man3=$(LD_LIBRARY_PATH=$prefix/lib "$ex/man3") || fail "the example of expmech(3) exited $?"
[[ $out_man3 == "p = 0.104"* ]] || fail "the example of expmech(3) printed: $out_man3"
# README's quick start, as a new user types it, against the installed tree: its shell block
# (E = the installed expmech, make already done) and its C block.  P(Married) = e^1.5 / (e^1.5
# + 2 e^0.5 + 1), computed outside expmech (python3 decimal, 40 digits).
qs=$top/quickstart; mkdir "$qs"
awk '/^## Quick start/{q=1} q&&/^```sh$/{on=1; next} on&&/^```$/{exit} on' README.md \
  | grep -v '^make$' | sed "s|^E=build/expmech$|E=$prefix/bin/expmech|" > "$qs/quick.sh"
grep -q 'score count' "$qs/quick.sh" || fail "README's quick start has no shell block"
out_qs=$(cd "$qs" && LD_LIBRARY_PATH=$prefix/lib bash -e quick.sh 2>/dev/null) || fail "README's quick start exited $?"
grep -qx 'Married,0.51049343699845312,-0.67237749748659272' <<<"$out_qs" \
  || fail "README's quick start printed: $out_qs"
{ echo '#include <expmech.h>'; echo '#include <stdio.h>'; echo 'int main(void) {'
  awk '/^```c$/{on=1; next} on&&/^```$/{exit} on' README.md; echo 'return 0; }'; } > "$qs/readme.c"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$qs/readme" "$qs/readme.c" $(pkg-config --cflags --libs expmech) \
  || fail "README's C example does not compile"
out_c=$(cd "$qs" && LD_LIBRARY_PATH=$prefix/lib ./readme) || fail "README's C example exited $?"
[ "$(head -1 <<<"$out_c")" = "Married 0.51049343699845312" ] && [ "$(wc -l <<<"$out_c")" -eq 4 ] \
  || fail "README's C example printed: $out_c"
# The Python binding as installed: found on the path make install chose, loading the library
# installed beside it (not this build: EXPMECH_LIB unset, run from outside the checkout).
pydir=$(find "$prefix/lib" -path '*/dist-packages/expmech/__init__.py' -printf '%h\n' | head -1)
[ -n "$pydir" ] || fail "the Python module was not installed"
pyout=$(cd "$top" && env -u EXPMECH_LIB PYTHONPATH="$(dirname "$pydir")" /usr/bin/python3 -c '
import expmech, expmech._lib as L, sys
print(expmech.__version__, L.lib._name)
print(*expmech.probs([0, 1], 2, digits=5))') || fail "the installed Python module: $pyout"
[ "$(sed -n 1p <<<"$pyout")" = "$version $prefix/lib/libexpmech.so.$(hv MAJOR)" ] \
  || fail "the installed Python module loads another library: $pyout"
[ "$(sed -n 2p <<<"$pyout")" = "0.26894 0.73106" ] || fail "the installed Python module computes: $pyout"
make --no-print-directory -s uninstall PREFIX="$prefix" B="$B" >/dev/null
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall (PREFIX): $left"

# --------------------------------------------------------------- 2. DESTDIR
dest=$top/dest
make --no-print-directory -s install DESTDIR="$dest" PREFIX=/usr/local B="$B" >/dev/null
outside=$(find "$dest" -mindepth 1 -maxdepth 2 ! -path "$dest/usr" ! -path "$dest/usr/local")
[ -z "$outside" ] || fail "installed outside DESTDIR/usr/local: $outside"
grep -qx 'prefix=/usr/local' "$dest/usr/local/lib/pkgconfig/expmech.pc" || fail "expmech.pc prefix under DESTDIR"
make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/usr/local B="$B" >/dev/null
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall (DESTDIR): $left"
echo "install-check: passed (PREFIX and DESTDIR installs, pkg-config $version, shared and static example, Python module)"
