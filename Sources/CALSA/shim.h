#ifndef VOICENOTES_CALSA_SHIM_H
#define VOICENOTES_CALSA_SHIM_H

#include <alsa/asoundlib.h>

// ALSA prints its own diagnostics to stderr unless an error handler is installed; our errors say
// what went wrong in one line instead. The handler is variadic, which Swift cannot write, so the
// silent handler and its installer live here.
static void calsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
  (void)file;
  (void)line;
  (void)function;
  (void)err;
  (void)fmt;
}

static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_ignore_error); }

#endif
