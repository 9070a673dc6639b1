#ifndef FATHOM_CZLIB_SHIM_H
#define FATHOM_CZLIB_SHIM_H

#include <string.h>
#include <zlib.h>

/// Compresses `input` as one gzip member into `output` (at least fathom_gzip_bound(length) bytes).
/// Returns the compressed length, or -1 on failure. deflateInit2 is a macro Swift cannot call.
static inline long fathom_gzip(const unsigned char *input, unsigned long length, unsigned char *output,
                               unsigned long capacity, int level) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return -1;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int result = deflate(&stream, Z_FINISH);
    long produced = (long)stream.total_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? produced : -1;
}

static inline unsigned long fathom_gzip_bound(unsigned long length) {
    return compressBound(length) + 32;
}

#endif
