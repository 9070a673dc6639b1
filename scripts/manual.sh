#!/usr/bin/env bash
# Writes Fathom's man page (mdoc) to OUT: swift-argument-parser's manual generator over BINARY's own
# definitions (what --help reads), with the prompt's commands from the command registry
# (BINARY --manual-section) before EXIT STATUS, and paragraph breaks where the generator leaves
# blank lines (which man --warnings reports).
#   scripts/manual.sh BINARY OUT          (SWIFT and SCRATCH, the build folder, from the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
out=$2
swift=${SWIFT:-swift}
scratch=${SCRATCH:-.build}

"$swift" build --scratch-path "$scratch" --product generate-manual >/dev/null 2>&1 || { echo "cannot build swift-argument-parser's generate-manual" >&2; exit 1; }
generator="$("$swift" build --scratch-path "$scratch" --show-bin-path)/generate-manual"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$generator" "$binary" --output-directory "$work" >/dev/null
"$binary" --manual-section >"$work/commands"
awk -v commands="$work/commands" '
    /^\.Sh "EXIT STATUS"/ { while ((getline line < commands) > 0) print line }
    /^$/ { print ".Pp"; next }
    { print }
' "$work/fathom.1" >"$out"
