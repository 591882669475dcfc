#ifndef VOICENOTES_CGGML_SHIM_H
#define VOICENOTES_CGGML_SHIM_H

// ggml's backend registry, which loads the CPU backend module the engines compute with. In a
// checkout after `make deps`, the engines the bootstrap built (found relative to this file);
// elsewhere, ggml installed where the compiler looks (`make install-engines PREFIX=/usr/local`).
#if __has_include("../../.deps/engines/include/ggml-backend.h")
#include "../../.deps/engines/include/ggml-backend.h"
#else
#include <ggml-backend.h>
#endif

#endif
