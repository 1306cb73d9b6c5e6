#ifndef FOCUS_CLIBCURL_SHIM_H
#define FOCUS_CLIBCURL_SHIM_H

// libcurl (libcurl.so.4, Debian's libcurl4, pulled in by libcurl4-openssl-dev), loaded with
// dlopen on the first calendar feed fetch: no other command loads it, or the TLS library and
// the dozen libraries behind it. The constants below are those of libcurl's public headers
// (curl.h, easy.h: CURLOPT_*, CURLINFO_*, CURLE_*), a stable ABI since libcurl 7.
//
// The whole transfer runs here in C (curl_easy_setopt is variadic, which Swift cannot call
// through a pointer): one request (GET, or any method with a body, for CalDAV) with the
// caller's limits and login, the body and the final response's header lines collected in
// buffers that stop at a size cap.

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum {
    FOCUS_CURLOPT_WRITEDATA = 10001,
    FOCUS_CURLOPT_URL = 10002,
    FOCUS_CURLOPT_ERRORBUFFER = 10010,
    FOCUS_CURLOPT_WRITEFUNCTION = 20011,
    FOCUS_CURLOPT_USERAGENT = 10018,
    FOCUS_CURLOPT_HTTPHEADER = 10023,
    FOCUS_CURLOPT_HEADERDATA = 10029,
    FOCUS_CURLOPT_NOPROGRESS = 43,
    FOCUS_CURLOPT_FOLLOWLOCATION = 52,
    FOCUS_CURLOPT_CAINFO = 10065,
    FOCUS_CURLOPT_MAXREDIRS = 68,
    FOCUS_CURLOPT_HEADERFUNCTION = 20079,
    FOCUS_CURLOPT_NOSIGNAL = 99,
    FOCUS_CURLOPT_ACCEPT_ENCODING = 10102,
    FOCUS_CURLOPT_MAXFILESIZE_LARGE = 30117,
    FOCUS_CURLOPT_TIMEOUT_MS = 155,
    FOCUS_CURLOPT_CONNECTTIMEOUT_MS = 156,
    FOCUS_CURLOPT_PROTOCOLS_STR = 10318,
    FOCUS_CURLOPT_REDIR_PROTOCOLS_STR = 10319,
    FOCUS_CURLOPT_POSTFIELDS = 10015,
    FOCUS_CURLOPT_CUSTOMREQUEST = 10036,
    FOCUS_CURLOPT_UNRESTRICTED_AUTH = 105,
    FOCUS_CURLOPT_HTTPAUTH = 107,
    FOCUS_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    FOCUS_CURLOPT_USERNAME = 10173,
    FOCUS_CURLOPT_PASSWORD = 10174,
    FOCUS_CURLINFO_RESPONSE_CODE = 0x200000 + 2,
};

/// CURLAUTH_BASIC and CURLAUTH_DIGEST (libcurl's curl.h): the server's 401 picks one.
enum { FOCUS_CURLAUTH_BASIC = 1, FOCUS_CURLAUTH_DIGEST = 2 };

/// The libcurl error codes focus tells apart (CURLE_*).
enum {
    FOCUS_CURLE_OK = 0,
    FOCUS_CURLE_UNSUPPORTED_PROTOCOL = 1,
    FOCUS_CURLE_COULDNT_RESOLVE_PROXY = 5,
    FOCUS_CURLE_COULDNT_RESOLVE_HOST = 6,
    FOCUS_CURLE_COULDNT_CONNECT = 7,
    FOCUS_CURLE_WRITE_ERROR = 23,
    FOCUS_CURLE_OPERATION_TIMEDOUT = 28,
    FOCUS_CURLE_SSL_CONNECT_ERROR = 35,
    FOCUS_CURLE_TOO_MANY_REDIRECTS = 47,
    FOCUS_CURLE_GOT_NOTHING = 52,
    FOCUS_CURLE_RECV_ERROR = 56,
    FOCUS_CURLE_SSL_CERTPROBLEM = 58,
    FOCUS_CURLE_PEER_FAILED_VERIFICATION = 60,
    FOCUS_CURLE_FILESIZE_EXCEEDED = 63,
    FOCUS_CURLE_SSL_CACERT_BADFILE = 77,
};

typedef struct FocusCurl {
    void *(*curl_easy_init)(void);
    int (*curl_easy_setopt)(void *handle, int option, ...);
    int (*curl_easy_perform)(void *handle);
    int (*curl_easy_getinfo)(void *handle, int info, ...);
    void (*curl_easy_cleanup)(void *handle);
    void (*curl_easy_reset)(void *handle);
    void *(*curl_slist_append)(void *list, const char *string);
    void (*curl_slist_free_all)(void *list);
    const char *(*curl_easy_strerror)(int code);
} FocusCurl;

/// Loads libcurl (`name`, or NULL for Debian's libcurl.so.4) and fills `api`. Returns NULL,
/// or why it could not.
static inline const char *focus_curl_load(FocusCurl *api, const char *name) {
    void *library = dlopen(name ? name : "libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    // Debian's GnuTLS build has the same ABI under another name.
    if (library == NULL && name == NULL) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libcurl.so.4 is not installed";
#define FOCUS_RESOLVE(name) \
    if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return "libcurl.so.4 lacks " #name;
    FOCUS_RESOLVE(curl_easy_init)
    FOCUS_RESOLVE(curl_easy_setopt)
    FOCUS_RESOLVE(curl_easy_perform)
    FOCUS_RESOLVE(curl_easy_getinfo)
    FOCUS_RESOLVE(curl_easy_cleanup)
    FOCUS_RESOLVE(curl_easy_reset)
    FOCUS_RESOLVE(curl_slist_append)
    FOCUS_RESOLVE(curl_slist_free_all)
    FOCUS_RESOLVE(curl_easy_strerror)
#undef FOCUS_RESOLVE
    return NULL;
}

/// Bytes collected up to `limit`; `overflow` is set once more arrived.
typedef struct FocusCurlBuffer {
    char *data;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflow;
} FocusCurlBuffer;

static inline int focus_curl_append(FocusCurlBuffer *buffer, const char *bytes, size_t count) {
    if (count > buffer->limit - buffer->length) { buffer->overflow = 1; return 0; }
    if (buffer->length + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->length + count) capacity *= 2;
        if (capacity > buffer->limit) capacity = buffer->limit;
        char *grown = (char *)realloc(buffer->data, capacity);
        if (grown == NULL) { buffer->overflow = 1; return 0; }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
    return 1;
}

static size_t focus_curl_on_body(char *bytes, size_t size, size_t count, void *user) {
    // Returning less than given aborts the transfer (CURLE_WRITE_ERROR).
    return focus_curl_append((FocusCurlBuffer *)user, bytes, size * count) ? size * count : 0;
}

static size_t focus_curl_on_header(char *bytes, size_t size, size_t count, void *user) {
    FocusCurlBuffer *buffer = (FocusCurlBuffer *)user;
    size_t n = size * count;
    // A status line starts each response (a redirect's, then the next): keep the last one's.
    if (n >= 5 && memcmp(bytes, "HTTP/", 5) == 0) buffer->length = 0;
    return focus_curl_append(buffer, bytes, n) ? n : 0;
}

typedef struct FocusCurlResult {
    int code;
    long status;
    char error[256];
    FocusCurlBuffer body;
    FocusCurlBuffer headers;
} FocusCurlResult;

/// The parts of one request beyond its address. `method` NULL is GET; `body` NULL sends none
/// (a body of `body_length` bytes otherwise); `user` NULL sends no login (`password` then
/// ignored). Credentials go to the first host only: CURLOPT_UNRESTRICTED_AUTH stays off, so
/// libcurl never sends them on to another host after a redirect.
typedef struct FocusCurlRequest {
    const char *url;
    const char *method;
    const char *headers;
    const char *body;
    size_t body_length;
    const char *user;
    const char *password;
    const char *ca_file;
    const char *protocols;
    const char *redirect_protocols;
    long connect_ms;
    long total_ms;
    long max_redirects;
    int follow_redirects;
    /// 1: HTTP Digest (RFC 7616); 0: Basic (RFC 7617), sent with the first request.
    int digest;
    size_t max_bytes;
    const char *user_agent;
} FocusCurlRequest;

/// One request. `headers` holds request header lines separated by '\n'. The caller frees the
/// buffers with `focus_curl_result_free`.
static inline void focus_curl_send(const FocusCurl *api, const FocusCurlRequest *request, FocusCurlResult *result) {
    const char *url = request->url, *headers = request->headers, *ca_file = request->ca_file;
    const char *protocols = request->protocols, *redirect_protocols = request->redirect_protocols;
    const char *user_agent = request->user_agent;
    long connect_ms = request->connect_ms, total_ms = request->total_ms, max_redirects = request->max_redirects;
    size_t max_bytes = request->max_bytes;
    memset(result, 0, sizeof *result);
    result->body.limit = max_bytes;
    result->headers.limit = 1 << 20;
    // One handle is kept for the process and reset between requests (curl_easy_reset keeps its
    // open connections): a sync of 2,000 items then sends them over one connection instead of
    // opening 2,000. A request made while another thread has it gets a handle of its own.
    static void *kept = NULL;
    static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
    int keeping = pthread_mutex_trylock(&kept_lock) == 0;
    void *curl = NULL;
    if (keeping) {
        if (kept == NULL) kept = api->curl_easy_init();
        else api->curl_easy_reset(kept);
        curl = kept;
    } else {
        curl = api->curl_easy_init();
    }
    if (curl == NULL) {
        if (keeping) pthread_mutex_unlock(&kept_lock);
        result->code = -1;
        strcpy(result->error, "libcurl could not start a transfer");
        return;
    }
    void *list = NULL;
    char *copy = strdup(headers ? headers : "");
    for (char *line = copy, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (*line) list = api->curl_slist_append(list, line);
    }
    // A body is sent at once, not after waiting for "100 Continue" (RFC 9110 section 10.1.1):
    // small servers (Python's among them) never send it, and libcurl would wait a second.
    if (request->body) list = api->curl_slist_append(list, "Expect:");
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_URL, url);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_ERRORBUFFER, result->error);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_NOSIGNAL, 1L);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_NOPROGRESS, 1L);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_PROTOCOLS_STR, protocols);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_REDIR_PROTOCOLS_STR, redirect_protocols);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_FOLLOWLOCATION, request->follow_redirects ? 1L : 0L);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_MAXREDIRS, max_redirects);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_TIMEOUT_MS, total_ms);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_MAXFILESIZE_LARGE, (long long)max_bytes);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_ACCEPT_ENCODING, "");
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_USERAGENT, user_agent);
    if (list) api->curl_easy_setopt(curl, FOCUS_CURLOPT_HTTPHEADER, list);
    if (ca_file) api->curl_easy_setopt(curl, FOCUS_CURLOPT_CAINFO, ca_file);
    if (request->body) {
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_POSTFIELDSIZE_LARGE, (long long)request->body_length);
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_POSTFIELDS, request->body);
    }
    if (request->method) api->curl_easy_setopt(curl, FOCUS_CURLOPT_CUSTOMREQUEST, request->method);
    if (request->user) {
        // One scheme, never both: with both, libcurl first sends every request without the
        // login to learn which the server wants, doubling each request.
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_HTTPAUTH, (long)(request->digest ? FOCUS_CURLAUTH_DIGEST : FOCUS_CURLAUTH_BASIC));
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_USERNAME, request->user);
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_PASSWORD, request->password ? request->password : "");
        api->curl_easy_setopt(curl, FOCUS_CURLOPT_UNRESTRICTED_AUTH, 0L);
    }
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_WRITEFUNCTION, focus_curl_on_body);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_WRITEDATA, &result->body);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_HEADERFUNCTION, focus_curl_on_header);
    api->curl_easy_setopt(curl, FOCUS_CURLOPT_HEADERDATA, &result->headers);
    result->code = api->curl_easy_perform(curl);
    api->curl_easy_getinfo(curl, FOCUS_CURLINFO_RESPONSE_CODE, &result->status);
    if (result->error[0] == 0 && result->code != 0) {
        const char *text = api->curl_easy_strerror(result->code);
        if (text) strncpy(result->error, text, sizeof result->error - 1);
    }
    // The kept handle forgets this request's headers and body before they are freed.
    if (keeping) {
        api->curl_easy_reset(curl);
        pthread_mutex_unlock(&kept_lock);
    } else {
        api->curl_easy_cleanup(curl);
    }
    if (list) api->curl_slist_free_all(list);
    free(copy);
}

static inline void focus_curl_result_free(FocusCurlResult *result) {
    free(result->body.data);
    free(result->headers.data);
    result->body.data = NULL;
    result->headers.data = NULL;
}

#endif
