#!/usr/bin/python3
"""Runs every shell block of README.md and docs/*.md through the built binary, as a user would.

Each ```sh block runs with bash (-e -o pipefail) in a scratch folder per document, where `build`
and `examples` point at the build and the source tree, so a block sees what the blocks above it
in the same document made (tf.db, mm.so). A block fails on a non-zero exit, on a line it must
print that it did not, or when it runs past its time.

A farm is started as the docs say: a line running `tunefarm tracker` or `tunefarm worker` runs in
the background, the tracker's address (HOST:9190, tracker-host:9190, 0.0.0.0:9190) becomes
127.0.0.1 and a free port, the dashboard's 127.0.0.1:8080 another free port, and the next line
waits until the tracker answers or the worker is listed. Background processes are stopped when
the block ends.

An HTML comment right above a block says what the runner needs to know:
  <!-- docs-test: skip REASON -->          never run here (a GPU, a board, the CI itself)
  <!-- docs-test: if-present PATH REASON --> run only where PATH exists, else skip with REASON
  <!-- docs-test: expect REGEX -->         the block's output must have a line matching REGEX
                                           (one comment per expected line)
Exit status: 0 when every block ran or was skipped with a reason, 1 otherwise.
"""

import argparse
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*docs-test:\s*(skip|if-present|expect)\s+(.*?)\s*-->\s*$")
TRACKER_ADDRESS = re.compile(r"\b(?:HOST|tracker-host|0\.0\.0\.0):9190\b")
DASHBOARD_ADDRESS = "127.0.0.1:8080"
BLOCK_SECONDS = 420


class Block:
    def __init__(self, doc, line, language, text, markers):
        self.doc = doc
        self.line = line
        self.language = language
        self.text = text
        self.markers = markers  # [(kind, argument)]

    def name(self):
        return "%s:%d" % (self.doc, self.line)


def read_blocks(path, doc):
    """The fenced blocks of a markdown file, each with the markers right above it."""
    blocks = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        markers = []
        j = i - 1
        while j >= 0 and MARKER.match(lines[j]):
            markers.insert(0, MARKER.match(lines[j]).groups())
            j -= 1
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise SystemExit("%s:%d: a code block that never ends" % (doc, i + 1))
        blocks.append(Block(doc, i + 1, m.group(1), "\n".join(lines[i + 1:end]), markers))
        i = end + 1
    for j, line in enumerate(lines):
        if line.startswith("<!-- docs-test") and not MARKER.match(line):
            raise SystemExit("%s:%d: a docs-test comment the runner does not know: %s" %
                             (doc, j + 1, line))
    return blocks


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def commands_of(text):
    """The block's commands: continuation lines joined, blank lines dropped."""
    commands, current = [], ""
    for line in text.split("\n"):
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip():
            commands.append(current.strip())
        current = ""
    return commands


def words_of(command):
    """The words of a command before its comment, split as the shell would."""
    return shlex.split(command, comments=True)


def subcommand_of(command):
    words = words_of(command)
    for i, w in enumerate(words):
        if w.endswith("tunefarm") and i + 1 < len(words):
            return words[i + 1], words
    return None, words


def script_for(block, tracker_port, http_port):
    """The bash script that runs the block, with the farm's long-running commands backgrounded."""
    out = ["set -e -o pipefail", "pids=()",
           "trap 'for p in \"${pids[@]}\"; do kill $p 2>/dev/null || true; done; wait' EXIT"]
    address = "127.0.0.1:%d" % tracker_port
    for command in commands_of(block.text):
        command = TRACKER_ADDRESS.sub(address, command)
        command = command.replace(DASHBOARD_ADDRESS, "127.0.0.1:%d" % http_port)
        sub, words = subcommand_of(command)
        if sub == "tracker":
            out.append("%s > tracker.log 2>&1 &" % command.split(" #")[0])
            out.append("pids+=($!)")
            out.append("for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/%d) 2>/dev/null "
                       "&& break; sleep 0.1; done" % tracker_port)
        elif sub == "worker":
            key = words[words.index("--key") + 1]
            token = ""
            if "--token-file" in words:
                token = " --token-file " + shlex.quote(words[words.index("--token-file") + 1])
            out.append("%s > worker-%s.log 2>&1 &" % (command.split(" #")[0], key))
            out.append("pids+=($!)")
            out.append("for i in $(seq 150); do ./build/tunefarm workers --tracker %s%s "
                       "2>/dev/null | grep -q -- %s && break; sleep 0.2; done" %
                       (address, token, shlex.quote(key)))
        else:
            out.append(command)
    return "\n".join(out) + "\n"


def run_block(block, scratch, log):
    for kind, argument in block.markers:
        if kind == "skip":
            return "skipped", argument
        if kind == "if-present":
            path, _, reason = argument.partition(" ")
            if not os.path.exists(path):
                return "skipped", "%s (%s is absent)" % (reason or "needs " + path, path)
    script = script_for(block, free_port(), free_port())
    started = time.monotonic()
    try:
        done = subprocess.run(["bash", "-c", script], cwd=scratch, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=BLOCK_SECONDS,
                              start_new_session=True)
        output, code = done.stdout.decode("utf-8", "replace"), done.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode("utf-8", "replace")
        code = "timeout after %d s" % BLOCK_SECONDS
    seconds = time.monotonic() - started
    log.write("==== %s (%.1f s)\n%s\n---- output\n%s\n" % (block.name(), seconds, script, output))
    if code != 0:
        return "failed", "exit %s; its output ends:\n%s" % (code, "\n".join(
            output.rstrip().split("\n")[-15:]))
    for kind, pattern in block.markers:
        if kind == "expect" and not re.search(pattern, output, re.M):
            return "failed", "no line matches %r; its output ends:\n%s" % (pattern, "\n".join(
                output.rstrip().split("\n")[-15:]))
    return "ok", "%.1f s" % seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--only", help="run only the documents whose path contains this")
    parser.add_argument("--docs", nargs="+",
                        help="these markdown files instead of README.md and docs/*.md")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    args = parser.parse_args()

    docs = args.docs or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(args.source_dir, "docs"))
        if f.endswith(".md"))
    if args.only:
        docs = [d for d in docs if args.only in d]
    root = tempfile.mkdtemp(prefix="tunefarm-docs-")
    log_path = os.path.join(root, "blocks.log")
    failures = 0
    with open(log_path, "w") as log:
        for doc in docs:
            blocks = [b for b in read_blocks(os.path.join(args.source_dir, doc), doc)
                      if b.language in ("sh", "bash", "shell")]
            if not blocks:
                continue
            scratch = os.path.join(root, doc.strip("/").replace("/", "_"))
            os.makedirs(scratch)
            os.symlink(os.path.abspath(args.build_dir), os.path.join(scratch, "build"))
            os.symlink(os.path.join(os.path.abspath(args.source_dir), "examples"),
                       os.path.join(scratch, "examples"))
            for block in blocks:
                state, detail = run_block(block, scratch, log)
                log.flush()
                print("%-8s %s: %s" % (state, block.name(), detail), flush=True)
                failures += state == "failed"
    print("docs: %d failed; every block's script and output: %s" % (failures, log_path))
    if failures == 0 and not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
