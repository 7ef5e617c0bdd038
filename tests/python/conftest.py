"""A real farm for the Python client's tests: `tunefarm tracker` and `tunefarm worker` processes
on 127.0.0.1 (an ephemeral port), with the farm's token, stopped when the session ends."""

import os
import subprocess
import tempfile
import time

import pytest

BINARY = os.environ.get("TUNEFARM_BINARY", os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "build", "tunefarm"))
KEY = "py-cpu"
# An OpenCL worker joins too where an OpenCL device is installed (PoCL in CI).
OPENCL_KEY = "py-opencl"
HAS_OPENCL = os.path.isdir("/etc/OpenCL/vendors") and bool(os.listdir("/etc/OpenCL/vendors"))


class RealFarm:
    def __init__(self, root):
        self.root = root
        self.token_file = os.path.join(root, "farm.token")
        with open(self.token_file, "w") as f:
            f.write("py+token/=\n")
        port_file = os.path.join(root, "port")
        self.processes = []
        self._start(["tracker", "--listen", "127.0.0.1:0", "--db", os.path.join(root, "farm.db"),
                     "--token-file", self.token_file, "--port-file", port_file], "tracker.log")
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.02)
        self.address = "127.0.0.1:" + open(port_file).read().strip()
        self._tracker_args = ["tracker", "--listen", self.address, "--db",
                              os.path.join(root, "farm.db"), "--token-file", self.token_file]
        self._start(["worker", "--tracker", self.address, "--key", KEY, "--token-file",
                     self.token_file, "--work-dir", os.path.join(root, "worker")], "worker.log")
        if HAS_OPENCL:
            self._start(["worker", "--tracker", self.address, "--key", OPENCL_KEY, "--device",
                         "opencl:0:0", "--token-file", self.token_file, "--work-dir",
                         os.path.join(root, "opencl-worker")], "opencl-worker.log")

    def _start(self, args, log):
        out = open(os.path.join(self.root, log), "w")
        self.processes.append(subprocess.Popen([BINARY] + args, stdout=out,
                                               stderr=subprocess.STDOUT))

    def kill_tracker(self):
        """The tracker dies at once (SIGKILL): its streams drop, its database stays."""
        self.processes[0].kill()
        self.processes[0].wait()

    def restart_tracker(self):
        """A tracker on the same address and database, as an operator restarts one."""
        self.kill_tracker()
        out = open(os.path.join(self.root, "tracker-restarted.log"), "w")
        self.processes[0] = subprocess.Popen([BINARY] + self._tracker_args, stdout=out,
                                             stderr=subprocess.STDOUT)

    def stop(self):
        for p in reversed(self.processes):
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.fixture(scope="session")
def real_farm():
    with tempfile.TemporaryDirectory(prefix="tunefarm-py-") as root:
        farm = RealFarm(root)
        yield farm
        farm.stop()


@pytest.fixture
def farm(real_farm):
    import tunefarm
    with tunefarm.connect(real_farm.address, token_file=real_farm.token_file) as f:
        for _ in range(250):  # the worker registers within a second or two
            if f.workers(key=KEY):
                break
            time.sleep(0.02)
        yield f
