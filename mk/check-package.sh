#!/usr/bin/env bash
# Properties of the built package that no C test can see; run by tests/test_package.
#   check-package.sh exports BUILD   libexpmech.so exports exactly the public functions
#   check-package.sh soname  BUILD   its SONAME is libexpmech.so.<EM_VERSION_MAJOR>
#   check-package.sh man1    BUILD   every command of `expmech --help` has a section in expmech.1
#   check-package.sh man3    BUILD   every public function is documented in expmech.3
#   check-package.sh render  BUILD   both pages format with no groff warning (-ww) and hold no
#                                    raw control character (a form feed where \f was meant)
#   check-package.sh deps    BUILD   make, make demo and make install ask only for the build
#                                    packages (mk/deps.sh build), never the proof toolchain
# The expected lists come from the headers and the program, never from a copy of them.
set -euo pipefail
cd "$(dirname "$0")/.."
what=$1; B=${2:-build}

# The public functions: every non-static function declared by a translation unit that
# includes only expmech.h, from gcc's own list of the prototypes it read (-aux-info),
# keeping those declared in the project's headers (not the system's).
public_functions() {
  local tmp; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' RETURN
  echo '#include "expmech.h"' > "$tmp/api.c"
  gcc -std=c11 -D_GNU_SOURCE -Isrc/include -Isrc -I. -fsyntax-only -aux-info "$tmp/api.aux" "$tmp/api.c"
  grep -E '^/\* (src|spec)/' "$tmp/api.aux" | grep -v ' static ' \
    | sed -E 's/^\/\*[^*]*\*\/ *//; s/ *\(.*$//; s/.*[ *]//' | sort -u
}

header_version() {
  sed -nE "s/^#define EM_VERSION_$1 ([0-9]+)$/\1/p" src/include/expmech.h
}

case $what in
exports)
  so=$B/libexpmech.so
  [ -e "$so" ] || { echo "no $so"; exit 1; }
  # Version-node names (EXPMECH_1, type A) are not functions.
  exported=$(nm -D --defined-only "$so" | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort -u)
  expected=$(public_functions)
  [ "$(echo "$expected" | wc -l)" -ge 20 ] || { echo "too few public functions parsed:"; echo "$expected"; exit 1; }
  if [ "$exported" != "$expected" ]; then
    echo "libexpmech.so exports differ from the public headers (< exported, > declared):"
    diff <(echo "$exported") <(echo "$expected") || true
    exit 1
  fi
  # Every export belongs to the version node, so a future ABI change can add another.
  if nm -D --defined-only "$so" | awk '$2 != "A"' | grep -v '@@EXPMECH_1$'; then
    echo "symbols above are outside version node EXPMECH_1"; exit 1
  fi
  echo "exports: $(echo "$exported" | wc -l) symbols, exactly the public functions"
  ;;
soname)
  want=libexpmech.so.$(header_version MAJOR)
  real=$want.$(header_version MINOR).$(header_version PATCH)
  got=$(readelf -d "$B/$real" | sed -nE 's/.*\(SONAME\).*\[(.*)\]/\1/p')
  [ "$got" = "$want" ] || { echo "SONAME of $B/$real is '$got', want '$want'"; exit 1; }
  [ "$(readlink "$B/$want")" = "$real" ] || { echo "$B/$want does not link to $real"; exit 1; }
  [ "$(readlink "$B/libexpmech.so")" = "$real" ] || { echo "$B/libexpmech.so does not link to $real"; exit 1; }
  echo "soname: $got"
  ;;
man1)
  cmds=$("$B/expmech" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{exit}')
  [ -n "$cmds" ] || { echo "no commands parsed from expmech --help"; exit 1; }
  missing=0
  for c in $cmds; do
    # Each command has its own subsection: .SS <command>
    grep -qx ".SS $c" man/expmech.1 || { echo "expmech.1: no '.SS $c'"; missing=1; }
  done
  [ $missing -eq 0 ] || exit 1
  grep -q "^\.TH .*\"expmech $(header_version MAJOR)\.$(header_version MINOR)\.$(header_version PATCH)\"" man/expmech.1 \
    || { echo "expmech.1 does not carry the header's version"; exit 1; }
  echo "man1: $(echo $cmds | wc -w) commands documented"
  ;;
man3)
  missing=0
  for f in $(public_functions); do
    grep -qE "^\.BI? \"?[^\"]*\b$f\b" man/expmech.3 || { echo "expmech.3: no synopsis line for $f"; missing=1; }
  done
  [ $missing -eq 0 ] || exit 1
  grep -q "^\.TH .*\"expmech $(header_version MAJOR)\.$(header_version MINOR)\.$(header_version PATCH)\"" man/expmech.3 \
    || { echo "expmech.3 does not carry the header's version"; exit 1; }
  echo "man3: every public function documented"
  ;;
render)
  for page in man/expmech.1 man/expmech.3; do
    warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || { echo "groff failed on $page"; exit 1; }
    [ -z "$warn" ] || { echo "$page: $warn"; exit 1; }
    if LC_ALL=C grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$page"; then
      echo "$page: raw control character (write \\f for a font escape)"; exit 1
    fi
    lines=$(groff -man -Tutf8 "$page" 2>/dev/null | grep -c .)
    [ "$lines" -ge 50 ] || { echo "$page renders to only $lines lines"; exit 1; }
  done
  echo "render: both pages format without warnings"
  ;;
deps)
  # What make would run for a fresh build directory: the package check it asks for.
  asked=$(make -n -B B="$B/deps-probe" all demo install 2>/dev/null | grep -oE 'mk/deps\.sh( [a-z]+)?' | sort -u)
  [ "$asked" = "mk/deps.sh build" ] || { echo "make all/demo/install asks for: ${asked:-nothing}"; exit 1; }
  echo "deps: building asks only for the build packages"
  ;;
*) echo "usage: $0 exports|soname|man1|man3|render [BUILD]" >&2; exit 2 ;;
esac
