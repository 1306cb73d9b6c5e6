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
#include <time.h>

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
    // The multi interface (multi.h), resolved when present (curl_multi_poll: libcurl 7.66):
    // several transfers at once over the connections one multi handle keeps.
    void *(*curl_multi_init)(void);
    int (*curl_multi_add_handle)(void *multi, void *easy);
    int (*curl_multi_remove_handle)(void *multi, void *easy);
    int (*curl_multi_perform)(void *multi, int *running);
    int (*curl_multi_poll)(void *multi, void *extra_fds, unsigned extra_nfds, int timeout_ms, int *numfds);
    void *(*curl_multi_info_read)(void *multi, int *queued);
    int (*curl_multi_cleanup)(void *multi);
    int has_multi;
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
#define FOCUS_RESOLVE_MULTI(name) \
    if ((*(void **)&api->name = dlsym(library, #name)) == NULL) api->has_multi = 0;
    api->has_multi = 1;
    FOCUS_RESOLVE_MULTI(curl_multi_init)
    FOCUS_RESOLVE_MULTI(curl_multi_add_handle)
    FOCUS_RESOLVE_MULTI(curl_multi_remove_handle)
    FOCUS_RESOLVE_MULTI(curl_multi_perform)
    FOCUS_RESOLVE_MULTI(curl_multi_poll)
    FOCUS_RESOLVE_MULTI(curl_multi_info_read)
    FOCUS_RESOLVE_MULTI(curl_multi_cleanup)
#undef FOCUS_RESOLVE_MULTI
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

/// Sets `curl` up for one request, its answer collected into `result` (which must stay where
/// it is until the transfer ends). `headers` holds request header lines separated by '\n'.
/// Returns the header list, to be freed once the transfer ended. libcurl copies every string
/// option but the body (CURLOPT_POSTFIELDS), which must outlive the transfer too.
static inline void *focus_curl_prepare(const FocusCurl *api, void *curl, const FocusCurlRequest *request, FocusCurlResult *result) {
    const char *url = request->url, *headers = request->headers, *ca_file = request->ca_file;
    const char *protocols = request->protocols, *redirect_protocols = request->redirect_protocols;
    const char *user_agent = request->user_agent;
    long connect_ms = request->connect_ms, total_ms = request->total_ms, max_redirects = request->max_redirects;
    size_t max_bytes = request->max_bytes;
    memset(result, 0, sizeof *result);
    result->body.limit = max_bytes;
    result->headers.limit = 1 << 20;
    void *list = NULL;
    char *copy = strdup(headers ? headers : "");
    for (char *line = copy, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (*line) list = api->curl_slist_append(list, line);
    }
    free(copy);
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
    return list;
}

/// The status and error text of a finished transfer.
static inline void focus_curl_finish(const FocusCurl *api, void *curl, int code, FocusCurlResult *result) {
    result->code = code;
    api->curl_easy_getinfo(curl, FOCUS_CURLINFO_RESPONSE_CODE, &result->status);
    if (result->error[0] == 0 && result->code != 0) {
        const char *text = api->curl_easy_strerror(result->code);
        if (text) strncpy(result->error, text, sizeof result->error - 1);
    }
}

/// One request. The caller frees the buffers with `focus_curl_result_free`.
static inline void focus_curl_send(const FocusCurl *api, const FocusCurlRequest *request, FocusCurlResult *result) {
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
        memset(result, 0, sizeof *result);
        result->code = -1;
        strcpy(result->error, "libcurl could not start a transfer");
        return;
    }
    void *list = focus_curl_prepare(api, curl, request, result);
    focus_curl_finish(api, curl, api->curl_easy_perform(curl), result);
    // The kept handle forgets this request's headers and body before they are freed.
    if (keeping) {
        api->curl_easy_reset(curl);
        pthread_mutex_unlock(&kept_lock);
    } else {
        api->curl_easy_cleanup(curl);
    }
    if (list) api->curl_slist_free_all(list);
}

/// Transfers in flight at once, at most (one easy handle each).
#define FOCUS_CURL_SLOTS 8

/// libcurl's CURLMsg (multi.h): CURLMSG_DONE (1) carries the transfer's CURLcode.
typedef struct FocusCurlMessage {
    int msg;
    void *easy_handle;
    union { void *whatever; int result; } data;
} FocusCurlMessage;

/// One transfer of a multi set: its handle (kept for the next transfer of this slot), what
/// must outlive the transfer (header list, body), and its answer.
typedef struct FocusCurlSlot {
    void *easy;
    void *list;
    char *body;
    /// 1 from start until collected; `done` once its answer is in `result`.
    int busy;
    int done;
    FocusCurlResult result;
} FocusCurlSlot;

/// Several transfers at once over one multi handle, whose connections are kept between them
/// (HTTP/1.1: one connection per transfer in flight, each reused by the next).
typedef struct FocusCurlMulti {
    void *multi;
    FocusCurlSlot slots[FOCUS_CURL_SLOTS];
} FocusCurlMulti;

/// A new set, or NULL when libcurl has no multi interface or no memory.
static inline FocusCurlMulti *focus_curl_multi_new(const FocusCurl *api) {
    if (!api->has_multi) return NULL;
    FocusCurlMulti *set = (FocusCurlMulti *)calloc(1, sizeof *set);
    if (set == NULL) return NULL;
    set->multi = api->curl_multi_init();
    if (set->multi == NULL) { free(set); return NULL; }
    return set;
}

/// Starts `request` in slot `index` (free: not busy). A transfer that cannot start is done at
/// once with code -1.
static inline void focus_curl_multi_start(const FocusCurl *api, FocusCurlMulti *set, int index, const FocusCurlRequest *request) {
    FocusCurlSlot *slot = &set->slots[index];
    slot->busy = 1;
    slot->done = 0;
    if (slot->easy == NULL) slot->easy = api->curl_easy_init();
    else api->curl_easy_reset(slot->easy);
    FocusCurlRequest copy = *request;
    slot->body = NULL;
    if (request->body) {
        slot->body = (char *)malloc(request->body_length + 1);
        if (slot->body) memcpy(slot->body, request->body, request->body_length + 1);
        copy.body = slot->body;
    }
    if (slot->easy == NULL || (request->body && slot->body == NULL)) {
        memset(&slot->result, 0, sizeof slot->result);
        slot->result.code = -1;
        strcpy(slot->result.error, "libcurl could not start a transfer");
        slot->done = 1;
        return;
    }
    slot->list = focus_curl_prepare(api, slot->easy, &copy, &slot->result);
    if (api->curl_multi_add_handle(set->multi, slot->easy) != 0) {
        slot->result.code = -1;
        strcpy(slot->result.error, "libcurl could not start a transfer");
        slot->done = 1;
    }
}

static inline void focus_curl_slot_release(const FocusCurl *api, FocusCurlSlot *slot) {
    if (slot->list) api->curl_slist_free_all(slot->list);
    free(slot->body);
    slot->list = NULL;
    slot->body = NULL;
}

static inline int focus_curl_multi_ready(const FocusCurlMulti *set) {
    for (int i = 0; i < FOCUS_CURL_SLOTS; i++) if (set->slots[i].busy && set->slots[i].done) return i;
    return -1;
}

static inline long focus_curl_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Drives the transfers until one is done and returns its slot (its answer in the slot's
/// `result`), or -1 when none was done within `timeout_ms` (negative: no limit).
static inline int focus_curl_multi_wait(const FocusCurl *api, FocusCurlMulti *set, long timeout_ms) {
    long deadline = timeout_ms < 0 ? -1 : focus_curl_now_ms() + timeout_ms;
    for (;;) {
        int running = 0;
        api->curl_multi_perform(set->multi, &running);
        FocusCurlMessage *message;
        int queued = 0;
        while ((message = (FocusCurlMessage *)api->curl_multi_info_read(set->multi, &queued)) != NULL) {
            if (message->msg != 1) continue;
            for (int i = 0; i < FOCUS_CURL_SLOTS; i++) {
                FocusCurlSlot *slot = &set->slots[i];
                if (!slot->busy || slot->done || slot->easy != message->easy_handle) continue;
                focus_curl_finish(api, slot->easy, message->data.result, &slot->result);
                api->curl_multi_remove_handle(set->multi, slot->easy);
                focus_curl_slot_release(api, slot);
                slot->done = 1;
                break;
            }
        }
        int ready = focus_curl_multi_ready(set);
        if (ready >= 0) return ready;
        long left = deadline < 0 ? 1000 : deadline - focus_curl_now_ms();
        if (left <= 0) return -1;
        api->curl_multi_poll(set->multi, NULL, 0, (int)(left > 1000 ? 1000 : left), NULL);
    }
}

/// Frees the slot's answer and makes it free for the next transfer.
static inline void focus_curl_multi_collect(FocusCurlMulti *set, int index) {
    free(set->slots[index].result.body.data);
    free(set->slots[index].result.headers.data);
    set->slots[index].result.body.data = NULL;
    set->slots[index].result.headers.data = NULL;
    set->slots[index].busy = 0;
    set->slots[index].done = 0;
}

/// Ends every transfer and frees the set.
static inline void focus_curl_multi_free(const FocusCurl *api, FocusCurlMulti *set) {
    if (set == NULL) return;
    for (int i = 0; i < FOCUS_CURL_SLOTS; i++) {
        FocusCurlSlot *slot = &set->slots[i];
        if (slot->easy == NULL) continue;
        if (slot->busy && !slot->done) api->curl_multi_remove_handle(set->multi, slot->easy);
        focus_curl_slot_release(api, slot);
        free(slot->result.body.data);
        free(slot->result.headers.data);
        api->curl_easy_cleanup(slot->easy);
    }
    api->curl_multi_cleanup(set->multi);
    free(set);
}

static inline void focus_curl_result_free(FocusCurlResult *result) {
    free(result->body.data);
    free(result->headers.data);
    result->body.data = NULL;
    result->headers.data = NULL;
}

#endif
