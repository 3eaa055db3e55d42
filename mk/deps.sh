#!/usr/bin/env bash
# Install the Debian packages a target needs, only those that are missing.
#   deps.sh build    what `make`, `make demo` and `make install` need: a C compiler and the
#                    libraries libexpmech links (GMP, MPFR, GSL, libsodium, Jansson)
#   deps.sh check    build, plus what `make check` runs: Check, valgrind, clang's fuzzer,
#                    pytest and numpy, groff, and the proof toolchain below
#   deps.sh proofs   build, plus Frama-C 25, Why3 1.5.1, Z3, CVC4, CVC5 and OCaml (make verify)
# As root the missing packages are installed with apt-get; anyone else gets the one apt-get
# line to run, on standard error, and exit status 1.
set -euo pipefail
BUILD=(gcc make python3 pkg-config binutils libgmp-dev libmpfr-dev libgsl-dev libsodium-dev
       libjansson-dev)
PROOFS=(frama-c-base why3 z3 cvc4 cvc5 ocaml)
CHECK=(check valgrind clang libclang-rt-14-dev python3-pytest python3-numpy groff-base sqlite3
       gnuplot-nox)
case "${1:-check}" in
  build)  PKGS=("${BUILD[@]}") ;;
  proofs) PKGS=("${BUILD[@]}" "${PROOFS[@]}") ;;
  check)  PKGS=("${BUILD[@]}" "${PROOFS[@]}" "${CHECK[@]}") ;;
  *) echo "usage: deps.sh build|check|proofs" >&2; exit 2 ;;
esac
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "expmech needs these Debian packages; as root run: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "deps: installing missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${missing[*]}"
