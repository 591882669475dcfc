#!/usr/bin/env bash
# Builds the analysis as it was when the speed issue was filed, for `AppBenchmark analysis` to
# compare against: the project's tree at BASELINE_COMMIT (taken from this clone's history with
# `git archive`, so the clone is not touched), its own bootstrap's engines (llama.cpp and
# whisper.cpp with that day's build flags: AVX2 only, GCC's OpenMP) and its AnalysisEval. The
# models are this checkout's. Prints the path of the baseline's AnalysisEval on standard output;
# progress goes to standard error. Idempotent: a finished build is kept and reused.
#
# Everything goes into ${VOICENOTES_BENCH_CACHE:-${VOICENOTES_CACHE:-~/.cache/voicenotes}/bench}/analysis-baseline/
#   tree-<commit>/   the old tree, its .deps/engines linked to the engines below
#   cache/           the old bootstrap's cache (its engines; the source downloads are linked in)
#
# Usage: scripts/analysis-baseline.sh
set -euo pipefail

# The main branch on 2 December 2026 at 06:51, before the first analysis speed change.
BASELINE_COMMIT=24f232fac37922ba5a50d08957e6515067b923c4

here="$(cd "$(dirname "$0")/.." && pwd)"
cache="${VOICENOTES_CACHE:-$HOME/.cache/voicenotes}"
root="${VOICENOTES_BENCH_CACHE:-$cache/bench}/analysis-baseline"
tree="$root/tree-${BASELINE_COMMIT:0:12}"
step="start"
trap 'echo "analysis-baseline: step \"$step\" failed (see the messages above)" >&2' ERR

log() { printf '==> %s\n' "$*" >&2; }

if [ -x "$tree/.build/release/AnalysisEval" ] && [ -f "$tree/.complete" ]; then
  echo "$tree/.build/release/AnalysisEval"
  exit 0
fi

step="old tree"
if ! git -C "$here" cat-file -e "$BASELINE_COMMIT^{commit}" 2>/dev/null; then
  echo "analysis-baseline: commit $BASELINE_COMMIT is not in this clone's history; clone without --depth" >&2
  exit 1
fi
rm -rf "$tree"
mkdir -p "$tree" "$root/cache/downloads"
log "analysis baseline: the tree at ${BASELINE_COMMIT:0:12}"
git -C "$here" archive "$BASELINE_COMMIT" | tar -x -C "$tree"

step="old engines"
# The old bootstrap checks each download's sha256 itself; linking the shared downloads in spares
# fetching them again.
for file in "$cache"/downloads/*.tar.gz; do
  [ -e "$file" ] && ln -sfn "$file" "$root/cache/downloads/"
done
mkdir -p "$tree/.deps"
ln -sfn "$here/.deps/models" "$tree/.deps/models"
log "analysis baseline: its engines, built by its own bootstrap (a few minutes on two cores)"
(cd "$tree" && VOICENOTES_CACHE="$root/cache" scripts/bootstrap.sh engines) >&2

step="old AnalysisEval"
log "analysis baseline: building its AnalysisEval"
(cd "$tree" && swift build -c release --product AnalysisEval) >&2
touch "$tree/.complete"
echo "$tree/.build/release/AnalysisEval"
