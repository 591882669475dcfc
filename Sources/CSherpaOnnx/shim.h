#ifndef VOICENOTES_CSHERPAONNX_SHIM_H
#define VOICENOTES_CSHERPAONNX_SHIM_H

// sherpa-onnx's C API (speaker diarization and speaker embeddings over ONNX Runtime). In a
// checkout after `make deps`, the header the bootstrap unpacked from the sherpa-onnx-core wheel
// (found relative to this file, so no include flags are needed); elsewhere, the header installed
// where the compiler looks (`make install-engines`).
#if __has_include("../../.deps/sherpa-onnx/include/sherpa-onnx/c-api/c-api.h")
#include "../../.deps/sherpa-onnx/include/sherpa-onnx/c-api/c-api.h"
#else
#include <sherpa-onnx/c-api/c-api.h>
#endif

#endif
