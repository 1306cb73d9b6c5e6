#ifndef FOCUS_CLIBNOTIFY_SHIM_H
#define FOCUS_CLIBNOTIFY_SHIM_H

// libnotify (libnotify.so.4, Debian's libnotify4, pulled in by libnotify-dev) and the few
// GLib calls focus makes with it, loaded with dlopen on the first desktop notification.
// Linking libnotify made every command load and relocate GLib, GIO, gdk-pixbuf and a dozen
// of their dependencies at start-up (about a third of the dynamic loader's work), although
// only a finished session or a reminder ever posts; and a machine without libnotify could
// not run focus at all. The declarations below follow libnotify's and GLib's public headers
// (notify.h, notification.h, gerror.h, gmessages.h, gmain.h), which define a stable ABI.

#include <dlfcn.h>
#include <stddef.h>

typedef int focus_gboolean;

/// GLib's GError: GQuark domain; gint code; gchar *message.
typedef struct FocusGError {
    unsigned int domain;
    int code;
    char *message;
} FocusGError;

/// libnotify's NotifyUrgency.
enum {
    FOCUS_NOTIFY_URGENCY_LOW = 0,
    FOCUS_NOTIFY_URGENCY_NORMAL = 1,
    FOCUS_NOTIFY_URGENCY_CRITICAL = 2,
};

/// GLib's GLogWriterFunc and G_LOG_WRITER_HANDLED.
typedef int (*FocusGLogWriterFunc)(int log_level, const void *fields, size_t n_fields, void *user_data);
enum { FOCUS_G_LOG_WRITER_HANDLED = 1 };

/// The functions focus calls, resolved from libnotify.so.4 and the GLib it loads.
typedef struct FocusLibNotify {
    focus_gboolean (*notify_init)(const char *app_name);
    void *(*notify_notification_new)(const char *summary, const char *body, const char *icon);
    void (*notify_notification_set_urgency)(void *notification, int urgency);
    void (*notify_notification_set_timeout)(void *notification, int timeout);
    focus_gboolean (*notify_notification_show)(void *notification, FocusGError **error);
    focus_gboolean (*notify_get_server_info)(char **name, char **vendor, char **version, char **spec_version);
    void (*g_error_free)(FocusGError *error);
    void (*g_free)(void *memory);
    void (*g_object_unref)(void *object);
    void (*g_log_set_writer_func)(FocusGLogWriterFunc writer, void *user_data, void (*user_data_free)(void *));
    focus_gboolean (*g_main_context_iteration)(void *context, focus_gboolean may_block);
} FocusLibNotify;

/// Loads libnotify and fills `api`. Returns NULL, or why it could not (the library is missing
/// or lacks a function); `api` is then unusable. Never unloaded: GLib does not support it.
static inline const char *focus_libnotify_load(FocusLibNotify *api) {
    void *library = dlopen("libnotify.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libnotify.so.4 is not installed (Debian: apt-get install libnotify4)";
#define FOCUS_RESOLVE(name) \
    if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return "libnotify.so.4 lacks " #name;
    FOCUS_RESOLVE(notify_init)
    FOCUS_RESOLVE(notify_notification_new)
    FOCUS_RESOLVE(notify_notification_set_urgency)
    FOCUS_RESOLVE(notify_notification_set_timeout)
    FOCUS_RESOLVE(notify_notification_show)
    FOCUS_RESOLVE(notify_get_server_info)
    FOCUS_RESOLVE(g_error_free)
    FOCUS_RESOLVE(g_free)
    FOCUS_RESOLVE(g_object_unref)
    FOCUS_RESOLVE(g_log_set_writer_func)
    FOCUS_RESOLVE(g_main_context_iteration)
#undef FOCUS_RESOLVE
    return NULL;
}

#endif
