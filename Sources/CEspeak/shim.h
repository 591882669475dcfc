#ifndef VOICENOTES_CESPEAK_SHIM_H
#define VOICENOTES_CESPEAK_SHIM_H

// espeak-ng's public C API (Debian libespeak-ng-dev). Only Phonemizer.swift imports this module.
#include <espeak-ng/speak_lib.h>

#endif
