#ifndef VOICENOTES_CMICROHTTPD_SHIM_H
#define VOICENOTES_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call: one fixed set of options (an idle timeout
// and a cap on open connections), with TLS when both a certificate and a key are given.
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, const struct sockaddr *address,
                                            MHD_AccessHandlerCallback handler, void *context,
                                            MHD_RequestCompletedCallback completed,
                                            const char *certificate, const char *key,
                                            unsigned int timeout_seconds,
                                            unsigned int connection_limit) {
  if (certificate != NULL && key != NULL) {
    return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_HTTPS_MEM_CERT, certificate,
                            MHD_OPTION_HTTPS_MEM_KEY, key,
                            MHD_OPTION_END);
  }
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                          MHD_OPTION_SOCK_ADDR, address,
                          MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                          MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                          MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                          MHD_OPTION_END);
}

// The port the daemon listens on (after binding port 0).
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

// Enumerators whose Swift names the importer makes ambiguous (aliases share their values).
static inline enum MHD_ResponseMemoryMode cmhd_must_copy(void) { return MHD_RESPMEM_MUST_COPY; }
static inline int cmhd_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

// MHD_SIZE_UNKNOWN and the content reader's end markers are macros of casts.
static inline uint64_t cmhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
static inline ssize_t cmhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t cmhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
