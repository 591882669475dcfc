#ifndef VOICENOTES_CCURL_SHIM_H
#define VOICENOTES_CCURL_SHIM_H

#include <stddef.h>
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per kind of argument the client passes.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}
// The write and header callbacks share one signature.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode ccurl_setopt_xferinfo(CURL *handle, curl_xferinfo_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

// CURL_GLOBAL_DEFAULT is a macro of an expression; CURL_ERROR_SIZE a plain one, named for clarity.
static inline CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
static inline size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }

// The result of a finished transfer sits in a union of the message.
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
