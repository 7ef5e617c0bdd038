#!/usr/bin/python3
"""The docs runner fails where a user would: a command that exits non-zero, a missing expected
line, a flag the binary does not take; and skips only with a reason. Runs the real binary."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("TUNEFARM_BUILD_DIR", os.path.join(SOURCE, "build"))


def run_docs(markdown):
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write(markdown)
    try:
        done = subprocess.run(
            [sys.executable, os.path.join(HERE, "run_docs.py"), "--source-dir", SOURCE,
             "--build-dir", BUILD, "--docs", f.name],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        return done.returncode, done.stdout.decode()
    finally:
        os.unlink(f.name)


class RunDocsTest(unittest.TestCase):
    def test_a_block_that_works_passes(self):
        code, out = run_docs("<!-- docs-test: expect ^tunefarm [0-9.]+ \\(commit -->\n"
                             "```sh\n./build/tunefarm --version\n```\n")
        self.assertEqual(code, 0, out)
        self.assertIn("ok ", out)

    def test_an_unknown_flag_fails_the_block(self):
        code, out = run_docs("```sh\n./build/tunefarm lower examples/matmul_tiled.te --frob\n```\n")
        self.assertEqual(code, 1, out)
        self.assertIn("failed", out)
        self.assertIn("--frob", out)

    def test_a_missing_expected_line_fails_the_block(self):
        code, out = run_docs("<!-- docs-test: expect ^never printed$ -->\n"
                             "```sh\n./build/tunefarm --version\n```\n")
        self.assertEqual(code, 1, out)
        self.assertIn("no line matches", out)

    def test_skips_say_why_and_other_languages_do_not_run(self):
        code, out = run_docs("<!-- docs-test: skip needs a board -->\n```sh\nfalse\n```\n"
                             "<!-- docs-test: if-present /no/such/path needs a thing -->\n"
                             "```sh\nfalse\n```\n```text\nfalse\n```\n")
        self.assertEqual(code, 0, out)
        self.assertIn("skipped", out)
        self.assertIn("needs a board", out)
        self.assertIn("/no/such/path is absent", out)

    def test_a_farm_block_starts_its_tracker_and_worker_on_loopback(self):
        code, out = run_docs(
            "<!-- docs-test: expect ^w-.* +docs-key +idle -->\n```sh\n"
            "./build/tunefarm tracker --listen 0.0.0.0:9190 --db farm.db   # the tracker\n"
            "./build/tunefarm worker --tracker HOST:9190 --key docs-key\n"
            "./build/tunefarm workers --tracker HOST:9190\n```\n")
        self.assertEqual(code, 0, out)

    def test_an_unknown_marker_is_refused(self):
        code, out = run_docs("<!-- docs-test: frob -->\n```sh\ntrue\n```\n")
        self.assertNotEqual(code, 0, out)
        self.assertIn("does not know", out)


if __name__ == "__main__":
    unittest.main()
