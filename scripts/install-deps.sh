#!/usr/bin/env bash
# Installs the Debian packages Fathom needs, only those missing.
#   scripts/install-deps.sh build   what building needs
#   scripts/install-deps.sh test    what the tests need as well
#   scripts/install-deps.sh bench   what the benchmarks run beside (curl, wrk, hey, hyperfine)
set -euo pipefail

build_packages=(pkg-config zlib1g-dev libssl-dev libedit-dev)
# jq: the JSON tests compare output with it byte for byte; the benchmarks run beside it.
# man-db: the install test renders the manual with man --warnings; binutils: make install strips.
test_packages=(openssl curl jq tmux python3-venv man-db binutils make)
bench_packages=(curl jq wrk hey hyperfine time)

wanted=("${build_packages[@]}")
if [[ "${1:-build}" == "test" ]]; then
    wanted+=("${test_packages[@]}")
fi
if [[ "${1:-build}" == "bench" ]]; then
    wanted+=("${bench_packages[@]}")
fi

missing=()
for package in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    echo "Fathom needs these Debian packages: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

echo "Installing ${missing[*]}…"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
