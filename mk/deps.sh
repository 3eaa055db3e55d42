#!/usr/bin/env bash
# Install the Debian packages expmech needs, only those that are missing, and say so.
set -euo pipefail
PKGS=(gcc make python3 pkg-config binutils groff-base
      frama-c-base why3 z3 cvc4 cvc5 ocaml
      libgmp-dev libmpfr-dev libgsl-dev libsodium-dev libjansson-dev check valgrind clang libclang-rt-14-dev
      python3-pytest python3-numpy sqlite3 gnuplot-nox)
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: not root; install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${missing[*]}"
