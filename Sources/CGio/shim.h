#ifndef FOCUS_CGIO_SHIM_H
#define FOCUS_CGIO_SHIM_H

// GIO's D-Bus client (GDBus, in libgio-2.0.so.0: Debian's libglib2.0-0, which libnotify already
// pulls in), loaded with dlopen when a countdown starts watching the screen saver, so no other
// command loads GLib. The declarations follow GIO's and GLib's public headers (gdbusconnection.h,
// gvariant.h, gmain.h, gerror.h), which define a stable ABI.

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef int focus_gio_gboolean;

/// GLib's GError: GQuark domain; gint code; gchar *message.
typedef struct FocusGioError {
    unsigned int domain;
    int code;
    char *message;
} FocusGioError;

/// GBusType.
enum {
    FOCUS_G_BUS_TYPE_SYSTEM = 1,
    FOCUS_G_BUS_TYPE_SESSION = 2,
};

/// GDBusSignalCallback.
typedef void (*FocusGDBusSignalCallback)(void *connection, const char *sender_name, const char *object_path,
                                         const char *interface_name, const char *signal_name, void *parameters,
                                         void *user_data);

/// The functions focus calls.
typedef struct FocusGio {
    void *(*g_bus_get_sync)(int bus_type, void *cancellable, FocusGioError **error);
    void (*g_dbus_connection_set_exit_on_close)(void *connection, focus_gio_gboolean exit_on_close);
    void *(*g_dbus_connection_call_sync)(void *connection, const char *bus_name, const char *object_path,
                                         const char *interface_name, const char *method_name, void *parameters,
                                         const char *reply_type, int flags, int timeout_msec, void *cancellable,
                                         FocusGioError **error);
    unsigned int (*g_dbus_connection_signal_subscribe)(void *connection, const char *sender, const char *interface_name,
                                                       const char *member, const char *object_path, const char *arg0,
                                                       int flags, FocusGDBusSignalCallback callback, void *user_data,
                                                       void (*user_data_free)(void *));
    void (*g_dbus_connection_signal_unsubscribe)(void *connection, unsigned int subscription_id);
    void *(*g_variant_get_child_value)(void *value, size_t index);
    focus_gio_gboolean (*g_variant_get_boolean)(void *value);
    void *(*g_variant_get_variant)(void *value);
    void *(*g_variant_lookup_value)(void *dictionary, const char *key, const char *expected_type);
    focus_gio_gboolean (*g_variant_is_of_type)(void *value, const char *type);
    const char *(*g_variant_get_string)(void *value, size_t *length);
    void *(*g_variant_new_string)(const char *string);
    void *(*g_variant_new_uint32)(uint32_t value);
    void *(*g_variant_new_tuple)(void *const *children, size_t n_children);
    void (*g_variant_unref)(void *value);
    void *(*g_main_context_new)(void);
    void (*g_main_context_push_thread_default)(void *context);
    focus_gio_gboolean (*g_main_context_iteration)(void *context, focus_gio_gboolean may_block);
    void (*g_main_context_wakeup)(void *context);
    void (*g_error_free)(FocusGioError *error);
    void (*g_object_unref)(void *object);
    void (*g_log_set_writer_func)(int (*writer)(int, const void *, size_t, void *), void *user_data,
                                  void (*user_data_free)(void *));
} FocusGio;

/// GLib's G_LOG_WRITER_HANDLED.
enum { FOCUS_GIO_LOG_WRITER_HANDLED = 1 };

/// Loads GIO and fills `api`. Returns NULL, or why it could not; `api` is then unusable. Never
/// unloaded: GLib does not support it.
static inline const char *focus_gio_load(FocusGio *api) {
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libgio-2.0.so.0 is not installed (Debian: apt-get install libglib2.0-0)";
#define FOCUS_RESOLVE(name) \
    if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return "libgio-2.0.so.0 lacks " #name;
    FOCUS_RESOLVE(g_bus_get_sync)
    FOCUS_RESOLVE(g_dbus_connection_set_exit_on_close)
    FOCUS_RESOLVE(g_dbus_connection_call_sync)
    FOCUS_RESOLVE(g_dbus_connection_signal_subscribe)
    FOCUS_RESOLVE(g_dbus_connection_signal_unsubscribe)
    FOCUS_RESOLVE(g_variant_get_child_value)
    FOCUS_RESOLVE(g_variant_get_boolean)
    FOCUS_RESOLVE(g_variant_get_variant)
    FOCUS_RESOLVE(g_variant_lookup_value)
    FOCUS_RESOLVE(g_variant_is_of_type)
    FOCUS_RESOLVE(g_variant_get_string)
    FOCUS_RESOLVE(g_variant_new_string)
    FOCUS_RESOLVE(g_variant_new_uint32)
    FOCUS_RESOLVE(g_variant_new_tuple)
    FOCUS_RESOLVE(g_variant_unref)
    FOCUS_RESOLVE(g_main_context_new)
    FOCUS_RESOLVE(g_main_context_push_thread_default)
    FOCUS_RESOLVE(g_main_context_iteration)
    FOCUS_RESOLVE(g_main_context_wakeup)
    FOCUS_RESOLVE(g_error_free)
    FOCUS_RESOLVE(g_object_unref)
    FOCUS_RESOLVE(g_log_set_writer_func)
#undef FOCUS_RESOLVE
    return NULL;
}

#endif
