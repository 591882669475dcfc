#ifndef VOICENOTES_CLLAMA_SHIM_H
#define VOICENOTES_CLLAMA_SHIM_H

#include <llama.h>

#endif
