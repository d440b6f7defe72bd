"""The device and app the peer server pretends to drive: a small notes app whose save
button crashes once the dark theme is on. Plain Python, no MCP: `whittle_peer.py`
exposes it through the mobile, ui and log tools.

The shapes here are the peer's own (as a foreign implementation's would be); only the
server module turns them into answers.
"""

import struct
import time
import zlib

PACKAGE = "com.example.notes"
DEVICE = "emulator-5554"
SCREEN = (360, 640)

CRASH_STACK = (
    "FATAL EXCEPTION: main\n"
    f"Process: {PACKAGE}, PID: 4242\n"
    "java.lang.IllegalStateException: theme not applied\n"
    "\tat com.example.notes.EditorActivity.onSave(EditorActivity.kt:88)\n"
    "\tat com.example.notes.EditorActivity.onClick(EditorActivity.kt:40)\n"
    "\tat android.view.View.performClick(View.java:7448)\n"
)


def rid(name):
    return f"{PACKAGE}:id/{name}"


def node(name, text, top, cls="android.widget.Button"):
    # Real dumps carry trailing spaces in text; the peer keeps one on purpose.
    return {"resource_id": rid(name), "text": text, "content_desc": "", "class": cls,
            "bounds": [20, top, 340, top + 40], "password": False, "focused": False,
            "visible": True, "package": PACKAGE, "clickable": True}


SCREENS = {
    "home": [
        {**node("home_root", "", 0, "android.widget.FrameLayout"), "bounds": [0, 0, 360, 20]},
        node("btn_settings", "Settings ", 30),
        node("btn_new", "New note ", 80),
        node("btn_sync", "Sync", 130),
    ],
    "settings": [
        node("btn_theme", "Dark theme", 30),
        node("btn_about", "About", 80),
    ],
    "editor": [
        {**node("note_text", "", 30, "android.widget.EditText"), "clickable": False},
        node("btn_save", "Save ", 80),
    ],
}
BACK = {"settings": "home", "editor": "home", "home": None}


class Device:
    """One device with the notes app installed: its screen, the app's state, the
    crash log and the log captures."""

    def __init__(self):
        self.screen = None  # None: the app is not in the foreground
        self.dark = False
        self.log = []  # crash records, oldest first
        self.next_record = 1
        self.captures = {}  # session_id -> {"status", "path"}

    # --- mobile ---
    def launch(self):
        self.screen = "home"
        self.dark = False

    def terminate(self):
        self.screen = None

    def press(self, button):
        if button != "BACK" or self.screen is None:
            return False
        self.screen = BACK[self.screen]
        return True

    # --- ui ---
    def elements(self):
        return [dict(e) for e in SCREENS.get(self.screen, [])]

    def find(self, strategies):
        """The first visible element matching any strategy; text compares trimmed, as
        a device that matches what it shows would."""
        for s in strategies:
            by, value = s.get("by"), str(s.get("value", ""))
            for e in self.elements():
                if by == "identifier" and e["resource_id"] == value:
                    return e
                if by == "text" and e["text"].strip() == value.strip():
                    return e
                if by == "label" and e["content_desc"].strip() == value.strip():
                    return e
        return None

    def tap(self, element):
        name = element["resource_id"].rsplit("/", 1)[-1]
        if name == "btn_settings":
            self.screen = "settings"
        elif name == "btn_theme":
            self.dark = True
        elif name == "btn_new":
            self.screen = "editor"
        elif name == "btn_save" and self.dark:
            self.crash(CRASH_STACK)

    def crash(self, stack):
        self.screen = None
        record = {"id": self.next_record, "ts": time.time(), "kind": "java",
                  "process": PACKAGE, "stack": stack}
        self.next_record += 1
        self.log.append(record)
        for capture in self.captures.values():
            if capture["status"] == "running":
                with open(capture["path"], "a", encoding="utf-8") as f:
                    f.write(stack)

    def clear_logs(self):
        self.log = []

    # --- screenshots ---
    def screenshot_png(self):
        """A PNG of the screen: white background, a grey bar per element."""
        width, height = SCREEN
        rows = [bytearray(b"\xff" * (width * 3)) for _ in range(height)]
        for e in self.elements():
            left, top, right, bottom = e["bounds"]
            for y in range(max(top, 0), min(bottom, height)):
                rows[y][left * 3:right * 3] = b"\x90" * ((right - left) * 3)
        raw = b"".join(b"\x00" + bytes(r) for r in rows)

        def chunk(tag, data):
            body = tag + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
