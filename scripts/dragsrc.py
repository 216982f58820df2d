# A drag source for scripts/smoke.sh: a small GTK window whose button drags
# one file URI, as a file manager does. Run with the system python3 (it
# needs python3-gi and gir1.2-gtk-3.0): dragsrc.py URI X Y
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

uri, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
window = Gtk.Window(title="vis-smoke-dragsrc")
window.set_default_size(80, 40)
window.move(x, y)
button = Gtk.Button(label="drag")
button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
button.drag_source_add_uri_targets()
button.connect("drag-data-get", lambda widget, ctx, data, info, time: data.set_uris([uri]))
window.add(button)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
