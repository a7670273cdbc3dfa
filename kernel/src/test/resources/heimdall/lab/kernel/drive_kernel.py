"""Drives a Jupyter kernel over the real protocol for the Java tests.

usage: drive_kernel.py KERNEL_NAME CELLS_JSON
Starts the kernel with jupyter_client, executes each cell in order and prints one JSON list: per cell,
the execute_reply status and every stream/execute_result/display_data/error message it caused.
A cell that starts with the line "//interrupt-after N" is interrupted (interrupt_request, as the
kernelspec's interrupt_mode says) N seconds after it was sent; one that starts with "//interrupt-when TEXT" once
the cell printed TEXT.
A cell "//is_complete\nCODE" sends an is_complete_request for CODE ("is_complete" holds the reply's content); a
cell "//history tail N" or "//history search PATTERN" a history_request ("history" holds the reply's content).
A cell that starts with the line "//inspect" is not executed: the rest is sent as an inspect_request
(Shift-Tab) with the cursor where "@@" stands (the marker removed); its entry holds the reply's content
under "inspect".
"""
import json
import sys
import time

from jupyter_client.manager import start_new_kernel


def shell_reply(kc, msg_id):
    """The content of the shell reply to msg_id (a reply that never comes fails the driver on its timeout)."""
    while True:
        reply = kc.get_shell_msg(timeout=180)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]


def main():
    name, cells_file = sys.argv[1], sys.argv[2]
    with open(cells_file) as f:
        cells = json.load(f)
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=180)
    results = []
    try:
        for code in cells:
            if code.startswith("//inspect\n"):
                body = code.split("\n", 1)[1]
                cursor = body.index("@@")
                msg_id = kc.inspect(body.replace("@@", "", 1), cursor_pos=cursor, detail_level=0)
                while True:
                    reply = kc.get_shell_msg(timeout=180)
                    if reply["parent_header"].get("msg_id") == msg_id:
                        break
                results.append({"status": reply["content"]["status"], "outputs": [],
                                "inspect": reply["content"]})
                continue
            if code.startswith("//is_complete\n"):
                msg_id = kc.is_complete(code.split("\n", 1)[1])
                results.append({"status": "ok", "outputs": [], "is_complete": shell_reply(kc, msg_id)})
                continue
            if code.startswith("//history "):
                # "//history tail N" or "//history search PATTERN"
                kind, arg = code.split("\n", 1)[0].split(" ", 2)[1:]
                if kind == "tail":
                    msg_id = kc.history(raw=True, output=True, hist_access_type="tail", n=int(arg))
                else:
                    msg_id = kc.history(raw=True, output=False, hist_access_type="search", pattern=arg, n=100)
                results.append({"status": "ok", "outputs": [], "history": shell_reply(kc, msg_id)})
                continue
            msg_id = kc.execute(code)
            if code.startswith("//interrupt-after "):
                time.sleep(float(code.split("\n", 1)[0].split()[1]))
                km.interrupt_kernel()
            # "//interrupt-when TEXT": interrupted once the cell printed TEXT (a measurement's progress line)
            when = code.split("\n", 1)[0][len("//interrupt-when "):] if code.startswith("//interrupt-when ") else None
            outputs = []
            while True:
                msg = kc.get_iopub_msg(timeout=180)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind = msg["msg_type"]
                if when and kind == "stream" and when in msg["content"]["text"]:
                    km.interrupt_kernel()
                    when = None
                if kind == "status" and msg["content"]["execution_state"] == "idle":
                    break
                if kind in ("stream", "execute_result", "display_data", "update_display_data", "error"):
                    outputs.append({"msg_type": kind, "content": msg["content"]})
            while True:
                reply = kc.get_shell_msg(timeout=180)
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            results.append({"status": reply["content"]["status"], "outputs": outputs})
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    json.dump(results, sys.stdout, default=str)


if __name__ == "__main__":
    main()
