# Shared by the benchmark scripts (sourced, not run): the release build of fathom, the demo API on a
# free loopback port, and the timing helpers. Sets `fathom`, `work` (a temporary folder removed on
# exit) and `base` (the demo API's URL).
#
# FATHOM_BIN=/path/to/fathom runs that binary instead of building one: to compare two builds (an
# older commit's release binary beside this one's) with the same script on the same machine.

# The release build's flags, as `make install` builds it (another set would rebuild everything).
read -r -a release <scripts/release-build-flags

if [[ -n "${FATHOM_BIN:-}" ]]; then
    fathom=$FATHOM_BIN
else
    swift build "${release[@]}" --product fathom >/dev/null
    bin=$(swift build "${release[@]}" --show-bin-path)
    fathom=$bin/fathom
fi

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$fathom" serve --port 0 >"$work/url" &
server=$!
for _ in $(seq 100); do [[ -s "$work/url" ]] && break; sleep 0.05; done
base=$(head -1 "$work/url")

now() { date +%s%N; }
# Median wall time in nanoseconds of `runs` runs of a shell line (after one warm-up).
median() {
    local line=$1 times=()
    bash -c "$line" >/dev/null 2>&1 || true
    for _ in $(seq "$runs"); do
        local start end
        start=$(now)
        bash -c "$line" >/dev/null 2>&1 || true
        end=$(now)
        times+=($((end - start)))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
ms() { awk -v n="$1" 'BEGIN { printf "%.2f ms", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }'; }
# A curl config that fetches `url` COUNT times into /dev/null, for one curl process.
curl_config() { for _ in $(seq "$2"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$1"; done; }
