#ifndef VOICENOTES_CLIBFUZZER_H
#define VOICENOTES_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (linked in by -sanitize=fuzzer): parses libFuzzer's flags from the command
/// line and calls `callback` with each input. Used instead of libFuzzer's own main, which SwiftPM's
/// executable entry point replaces.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
