#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs each for a number of seconds.
#
#   scripts/fuzz.sh --seconds N [TARGET...]     all targets when none is named
#   scripts/fuzz.sh --list                      the target names
#
# Each run starts from the committed seeds (Fuzz/Corpus/<Target>, read only) and what earlier runs
# found (.build/fuzz-corpus/<Target>, where new inputs go). A crash, sanitizer report, timeout or
# out-of-memory leaves its input in .build/fuzz-artifacts/<Target>/ and makes the script exit 1.
# Per target it prints seconds, executions per second, libFuzzer's cov and ft counters, corpus
# size and crashes. Logs: .build/fuzz-logs/<Target>.log. Run it under `nice` on a shared machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGETS=(AudioFile CustomLanguageModel JSON Schema CommandLine SearchQuery HTTP)
BUILD="$ROOT/.build/fuzz"
BINARY="$BUILD/debug/VoiceNotesFuzz"
export OMP_WAIT_POLICY=passive
# Swift's own crash backtracer would run before libFuzzer's handler (and trips AddressSanitizer).
export SWIFT_BACKTRACE=enable=no

seconds=60
selected=()
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#*=}"; shift ;;
    --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *)
      if [[ " ${TARGETS[*]} " != *" $1 "* ]]; then
        echo "fuzz.sh: no target $1; use one of: ${TARGETS[*]}" >&2
        exit 2
      fi
      selected+=("$1"); shift ;;
  esac
done
((${#selected[@]})) || selected=("${TARGETS[@]}")

echo "fuzz.sh: building VoiceNotesFuzz (-sanitize=fuzzer,address) in .build/fuzz"
built=0
VOICENOTES_FUZZ=1 swift build --build-path "$BUILD" -c debug --product VoiceNotesFuzz 2>&1 || built=$?
((built == 0)) && [[ -x "$BINARY" ]] || { echo "fuzz.sh: the build failed" >&2; exit 1; }

mkdir -p .build/fuzz-logs
failed=()
summary=()
for target in "${selected[@]}"; do
  corpus=".build/fuzz-corpus/$target"
  artifacts=".build/fuzz-artifacts/$target"
  log=".build/fuzz-logs/$target.log"
  mkdir -p "$corpus" "$artifacts"
  before=$(find "$artifacts" -type f | wc -l)
  max_len=4096
  [[ "$target" == AudioFile ]] && max_len=16384
  echo "fuzz.sh: $target for ${seconds}s"
  status=0
  started=$SECONDS
  VOICENOTES_FUZZ_TARGET="$target" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$BINARY" \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=30 -max_len="$max_len" \
    -artifact_prefix="$artifacts/" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - started))
  after=$(find "$artifacts" -type f | wc -l)
  crashes=$((after - before))
  ((status == 0)) || ((crashes > 0)) || crashes=1
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  last=$(grep -E '(DONE|pulse|NEW|REDUCE|INITED).*cov: ' "$log" | tail -1 || true)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
  files=$(find "$corpus" -type f | wc -l)
  line=$(printf '%-20s %6ss %8s exec/s  cov %6s  ft %6s  corpus %5s  crashes %s' \
    "$target" "$elapsed" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$files" "$crashes")
  summary+=("$line")
  echo "$line"
  if ((crashes > 0)); then
    failed+=("$target")
    grep -m1 -E 'ERROR: |Fatal error|fuzz check failed|==[0-9]+==' "$log" || true
    echo "fuzz.sh: $target failed (exit $status); input in $artifacts/, log in $log" >&2
  fi
done

echo
echo "fuzz.sh: summary ($(date -u +%Y-%m-%dT%H:%MZ))"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz.sh: crashes in ${failed[*]}" >&2
  exit 1
fi
