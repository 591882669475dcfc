#ifndef VOICENOTES_CFFMPEG_SHIM_H
#define VOICENOTES_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>

// Function-like macros are invisible to Swift; these expose the error codes it needs.
static inline int cffmpeg_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
static inline int cffmpeg_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cffmpeg_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int cffmpeg_codec_cap_small_last_frame(void) { return AV_CODEC_CAP_SMALL_LAST_FRAME; }

#endif
