#ifndef VOICENOTES_CWHISPER_SHIM_H
#define VOICENOTES_CWHISPER_SHIM_H

#include <whisper.h>

#endif
