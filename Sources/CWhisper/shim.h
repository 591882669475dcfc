#ifndef VOICENOTES_CWHISPER_SHIM_H
#define VOICENOTES_CWHISPER_SHIM_H

// In a checkout after `make deps`, the engines the bootstrap built (found relative to this file,
// so neither this package nor one that depends on it needs include flags); elsewhere, whisper.cpp
// installed where the compiler looks (`make install-engines PREFIX=/usr/local`).
#if __has_include("../../.deps/engines/include/whisper.h")
#include "../../.deps/engines/include/whisper.h"
#else
#include <whisper.h>
#endif

#endif
