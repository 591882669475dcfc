#!/usr/bin/env bash
# Installs the engines `make deps` built (whisper.cpp, llama.cpp, ggml) into PREFIX, where the
# compiler, the linker and pkg-config look, so that a Swift package on this machine can depend
# on ours without the checkout's .deps: `make install-engines PREFIX=/usr/local`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ENGINES="$ROOT/.deps/engines"
PREFIX="${1:?usage: install-engines.sh PREFIX}"
[[ -f "$ENGINES/include/whisper.h" ]] || { echo "install-engines: no engines in $ENGINES; run make deps first" >&2; exit 1; }
mkdir -p "$PREFIX/include" "$PREFIX/lib/pkgconfig"
cp -a "$ENGINES/include/." "$PREFIX/include/"
cp -a "$ENGINES/lib/"*.so* "$PREFIX/lib/"
source_prefix="$(readlink -f "$ENGINES")"
for pc in "$ENGINES/lib/pkgconfig/"*.pc; do
  sed -e "s|^prefix=.*|prefix=$PREFIX|" -e "s|$source_prefix|$PREFIX|g" "$pc" >"$PREFIX/lib/pkgconfig/$(basename "$pc")"
done
# sherpa-onnx's C API and ONNX Runtime (speaker diarization), as the bootstrap unpacked them.
SHERPA="$ROOT/.deps/sherpa-onnx"
if [[ -f "$SHERPA/include/sherpa-onnx/c-api/c-api.h" ]]; then
  cp -a "$SHERPA/include/." "$PREFIX/include/"
  cp -a "$SHERPA/lib/"*.so* "$PREFIX/lib/"
fi
# The model converters `voicenotes models install` runs, where an installed program looks for them.
mkdir -p "$PREFIX/share/voicenotes"
cp "$ROOT/scripts/convert-speaker-models.py" "$ROOT/scripts/convert-embedding-model.py" "$PREFIX/share/voicenotes/"
if [[ "$PREFIX" == /usr/local || "$PREFIX" == /usr ]] && command -v ldconfig >/dev/null; then ldconfig; fi
echo "install-engines: whisper.cpp and llama.cpp are in $PREFIX (headers, libraries, pkg-config files)"
