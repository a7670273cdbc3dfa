"""Drives the jshell tool on a pseudo-terminal, as a user at a terminal would.

argv: a JSON file with the jshell command line and the steps. A step is {"send": text} (a line),
{"ctrl_c_after": text, "delay": s} (Ctrl-C s seconds after the output holds text), {"wait_for": text} (wait until the
output holds text) or {"prompts": n} (wait until n prompts were shown). ctrl_c_after and wait_for look at what was
printed since the last send or wait_for. Everything jshell printed goes to stdout.
"""
import fcntl
import json
import os
import pty
import select
import struct
import sys
import termios
import time

spec = json.load(open(sys.argv[1]))
pid, fd = pty.fork()
if pid == 0:
    os.execv(spec["argv"][0], spec["argv"])
# a terminal's size, as a real one has (jshell pages documentation by it, and fails on a 0x0 one)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
out = b""
mark = 0  # where ctrl_c_after and wait_for start looking


def until(pred, seconds):
    global out
    end = time.time() + seconds
    while time.time() < end and not pred():
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                out += os.read(fd, 65536)
            except OSError:
                return False
    return pred()


for step in spec["steps"]:
    if "prompts" in step:
        n = step["prompts"]
        # jline starts each line it reads by turning bracketed paste on: one per prompt
        if not until(lambda: out.count(b"\x1b[?2004h") >= n, 120):
            break
    elif "ctrl_c_after" in step:
        text = step["ctrl_c_after"].encode()
        if not until(lambda: text in out[mark:], 120):
            break
        until(lambda: False, step.get("delay", 0))
        os.write(fd, b"\x03")
    elif "wait_for" in step:
        text = step["wait_for"].encode()
        if not until(lambda: text in out[mark:], 120):
            break
        mark = out.index(text, mark) + len(text)
    elif "type" in step:
        mark = len(out)
        os.write(fd, step["type"].encode())
    else:
        mark = len(out)
        os.write(fd, step["send"].encode() + b"\n")
until(lambda: False, 2)
os.write(fd, b"/exit\n")
until(lambda: False, 3)
sys.stdout.write(out.decode("utf-8", "replace"))
