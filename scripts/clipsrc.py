# A clipboard owner for scripts/smoke.sh and app's clipboard test: puts an
# image (as a screenshot tool does: GTK offers it as image/png and the other
# pixbuf formats) or a text on the X CLIPBOARD and owns it until killed.
# Prints "ready" once it owns the clipboard. Run with the system python3
# (python3-gi and gir1.2-gtk-3.0):
#   clipsrc.py image FILE.png
#   clipsrc.py text 'some text'
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GdkPixbuf, GLib, Gtk  # noqa: E402

kind, value = sys.argv[1], sys.argv[2]
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
if kind == "image":
    clipboard.set_image(GdkPixbuf.Pixbuf.new_from_file(value))
elif kind == "text":
    clipboard.set_text(value, -1)
else:
    sys.exit("clipsrc.py: kind must be image or text")


def ready():
    print("ready", flush=True)
    return False


# Say so once the main loop runs: the selection is owned and served from then on.
GLib.idle_add(ready)
Gtk.main()
