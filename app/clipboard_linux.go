//go:build linux

package app

// Reading an image from the system clipboard through GTK (Wails links GTK 3
// on Linux). WebKitGTK gives the page no clipboard items of kind "file" for
// an image, so the page asks Go (PasteImage) when a paste carries none.
// GTK is not thread-safe: the read runs on the thread that owns GLib's
// default main context (the window's GTK main loop), handed over with
// g_main_context_invoke; the calling goroutine's thread waits on a
// condition until it is done. GTK's own selection timeout bounds the wait
// when the owner does not answer.

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>
#include <string.h>

typedef struct {
	GMutex mu;
	GCond cond;
	gboolean done;
	guchar *data;
	gsize len;
	char *err;
} vis_clip_req;

// Runs on the GTK thread: image/png as the owner offers it, else any image
// format GTK converts (through a pixbuf) to PNG. Nothing when the clipboard
// holds no image.
static gboolean vis_clip_read_main(gpointer p) {
	vis_clip_req *r = p;
	guchar *data = NULL;
	gsize len = 0;
	char *err = NULL;
	GtkClipboard *cb = gtk_clipboard_get(GDK_SELECTION_CLIPBOARD);
	GdkAtom *targets = NULL;
	gint n = 0;
	// TARGETS asked of the owner each time: gtk_clipboard_wait_for_targets
	// answers from a cache that only the main loop's owner-change events
	// clear.
	GtkSelectionData *ts = gtk_clipboard_wait_for_contents(cb, gdk_atom_intern_static_string("TARGETS"));
	gboolean have = ts && gtk_selection_data_get_targets(ts, &targets, &n);
	if (ts) gtk_selection_data_free(ts);
	if (have) {
		gboolean png = FALSE;
		gboolean image = gtk_targets_include_image(targets, n, FALSE);
		for (gint i = 0; i < n; i++) {
			gchar *name = gdk_atom_name(targets[i]);
			if (name && strcmp(name, "image/png") == 0) png = TRUE;
			g_free(name);
		}
		g_free(targets);
		if (png) {
			GtkSelectionData *sd = gtk_clipboard_wait_for_contents(cb, gdk_atom_intern_static_string("image/png"));
			if (sd) {
				gint l = 0;
				const guchar *d = gtk_selection_data_get_data_with_length(sd, &l);
				if (d && l > 0) {
					data = g_memdup2(d, (gsize)l);
					len = (gsize)l;
				}
				gtk_selection_data_free(sd);
			}
		}
		if (!data && image) {
			GdkPixbuf *pb = gtk_clipboard_wait_for_image(cb);
			if (pb) {
				GError *e = NULL;
				gchar *buf = NULL;
				gsize bl = 0;
				if (gdk_pixbuf_save_to_buffer(pb, &buf, &bl, "png", &e, NULL)) {
					data = (guchar *)buf;
					len = bl;
				} else {
					err = g_strdup(e ? e->message : "could not encode it as PNG");
					if (e) g_error_free(e);
				}
				g_object_unref(pb);
			} else {
				err = g_strdup("the program that copied it did not hand it over");
			}
		}
	}
	g_mutex_lock(&r->mu);
	r->data = data;
	r->len = len;
	r->err = err;
	r->done = TRUE;
	g_cond_signal(&r->cond);
	g_mutex_unlock(&r->mu);
	return G_SOURCE_REMOVE;
}

// Blocks until the GTK thread has read the clipboard. Called from a thread
// other than the GTK one, or, with no main loop running (tests), runs the
// read on the calling thread.
static void vis_clip_read(vis_clip_req *r) {
	g_mutex_init(&r->mu);
	g_cond_init(&r->cond);
	r->done = FALSE;
	g_main_context_invoke(NULL, vis_clip_read_main, r);
	g_mutex_lock(&r->mu);
	while (!r->done) g_cond_wait(&r->cond, &r->mu);
	g_mutex_unlock(&r->mu);
	g_mutex_clear(&r->mu);
	g_cond_clear(&r->cond);
}

static int vis_gtk_init(void) { return gtk_init_check(NULL, NULL); }
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

// clipboardMu serialises reads: one at a time is all a paste needs.
var clipboardMu sync.Mutex

// readClipboardImage returns the image on the system clipboard as PNG (or
// the owner's own bytes when it offers image/png); nil and no error when the
// clipboard holds no image. GTK must be initialised (the window does it;
// tests call initGTK).
func readClipboardImage() ([]byte, error) {
	clipboardMu.Lock()
	defer clipboardMu.Unlock()
	// C memory: the GTK thread writes into it while this thread waits.
	r := (*C.vis_clip_req)(C.g_malloc0(C.sizeof_vis_clip_req))
	defer C.g_free(C.gpointer(unsafe.Pointer(r)))
	C.vis_clip_read(r)
	if r.err != nil {
		msg := C.GoString(r.err)
		C.g_free(C.gpointer(unsafe.Pointer(r.err)))
		if r.data != nil {
			C.g_free(C.gpointer(unsafe.Pointer(r.data)))
		}
		return nil, errors.New("the clipboard's image could not be read: " + msg)
	}
	if r.data == nil {
		return nil, nil
	}
	defer C.g_free(C.gpointer(unsafe.Pointer(r.data)))
	if r.len > MaxImageBytes {
		return nil, errors.New("the clipboard's image is " + mib(int64(r.len)) + "; images over " + mib(MaxImageBytes) + " are refused")
	}
	return C.GoBytes(unsafe.Pointer(r.data), C.int(r.len)), nil
}

// initGTK initialises GTK on the default display (DISPLAY) for a process
// without a window (tests); false when there is no display.
func initGTK() bool { return C.vis_gtk_init() != 0 }
