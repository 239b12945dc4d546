"""Drives a command through a real pseudo-terminal, for testing interactive prompts.

Reads a JSON spec on stdin: {"argv": [...], "cwd": "...", "env": {...}, "steps": [[expect, send], ...],
"timeout": seconds}. For each step it waits until `expect` has appeared in the output since the
previous step, then types `send`. Prints {"status": exit status, "output": everything printed}
as JSON; a step that times out ends the child and reports status null with the output so far.
"""
import json
import os
import pty
import select
import signal
import sys
import time

spec = json.load(sys.stdin)
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])

output = b""
deadline = time.monotonic() + spec.get("timeout", 60)


def read_some(wait):
    global output
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # the child closed the terminal
        return False
    if not chunk:
        return False
    output += chunk
    return True


def finish(status):
    print(json.dumps({"status": status, "output": output.decode("utf-8", "replace")}))
    sys.exit(0)


seen = 0
for expect, send in spec["steps"]:
    while expect.encode() not in output[seen:]:
        if time.monotonic() > deadline or not read_some(0.1):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            finish(None)
    seen = output.index(expect.encode(), seen) + len(expect)
    os.write(fd, send.encode())

status = None
while status is None and time.monotonic() < deadline:
    if not read_some(0.1):
        break
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done != 0:
        status = raw
while read_some(0):  # what the child printed just before it exited
    pass
if status is None:
    if time.monotonic() >= deadline:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
finish(os.waitstatus_to_exitcode(status))
