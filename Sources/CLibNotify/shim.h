#ifndef FOCUS_CLIBNOTIFY_SHIM_H
#define FOCUS_CLIBNOTIFY_SHIM_H

// libnotify, and through it GLib, GObject and GIO (g_log_set_writer_func,
// g_main_context_iteration, g_object_unref, g_error_free, g_free).
#include <libnotify/notify.h>

#endif
