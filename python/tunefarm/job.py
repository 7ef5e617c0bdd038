"""A tuning job of a farm: its progress, a watch that follows it, wait and cancel."""

import dataclasses
import json
import time

import grpc

from tunefarm._stubs import tracker_pb2
from tunefarm.errors import farm_error

# The CLI's words for a job's state (tracker.proto's JobState).
STATE_NAMES = {0: "unspecified", 1: "queued", 2: "running", 3: "succeeded", 4: "failed",
               5: "cancelled", 6: "paused"}
FINISHED = ("succeeded", "failed", "cancelled")


@dataclasses.dataclass(frozen=True)
class JobProgress:
    id: str
    state: str  # queued, running, succeeded, failed or cancelled
    workload: str
    target: str
    device_key: str
    trials: int  # asked for
    trials_done: int
    errors: int
    best_seconds: float  # 0: none yet
    best_gflops: float
    best_config: dict
    message: str  # why it waits or failed

    @property
    def finished(self):
        return self.state in FINISHED

    @staticmethod
    def from_proto(p):
        return JobProgress(id=p.id, state=STATE_NAMES.get(p.state, "unspecified"),
                           workload=p.workload_key, target=p.target, device_key=p.device_key,
                           trials=p.trials, trials_done=p.trials_done, errors=p.errors,
                           best_seconds=p.best_seconds, best_gflops=p.best_gflops,
                           best_config=json.loads(p.best_config_json) if p.best_config_json
                           else {}, message=p.message)


class Followed:
    """What Job and ModelJob share: `progress` (the last state seen, with `finished`), a watch
    that reconnects a dropped stream, wait. Subclasses open the stream and read its events."""

    # A watch whose stream drops (a tracker restart, a network blip) is opened again this many
    # times, this far apart, before the error is raised.
    RECONNECTS = 5
    RECONNECT_PAUSE_S = 1.0

    def __init__(self, farm, progress):
        self._farm = farm
        self.progress = progress

    @property
    def id(self):
        return self.progress.id

    @property
    def state(self):
        return self.progress.state

    def _stream(self, timeout):  # the tracker's stream of events for this job
        raise NotImplementedError

    def _progress_of(self, event):
        raise NotImplementedError

    def refresh(self):
        raise NotImplementedError

    def watch(self, timeout=None):
        """Yields the job's progress each time it changes, until it has finished.

        A dropped stream is opened again (RECONNECTS times); `timeout` seconds without the job
        finishing raises TimeoutError. Never hangs on a lost tracker."""
        deadline = None if timeout is None else time.monotonic() + timeout
        failures = 0
        while not self.progress.finished:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise TimeoutError("job %s still %s after %s s" % (self.id, self.state, timeout))
            try:
                for event in self._stream(remaining):
                    failures = 0
                    self.progress = self._progress_of(event)
                    yield self.progress
                    if self.progress.finished:
                        return
                # The stream ended without a final state: read it once more.
                self.refresh()
            except grpc.RpcError as e:
                if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise TimeoutError("job %s still %s after %s s" %
                                       (self.id, self.state, timeout)) from None
                failures += 1
                if e.code() != grpc.StatusCode.UNAVAILABLE or failures > self.RECONNECTS:
                    raise farm_error(self._farm.address, e) from None
                time.sleep(self.RECONNECT_PAUSE_S)

    def wait(self, timeout=None):
        """Blocks until the job has finished; its final progress."""
        for _ in self.watch(timeout=timeout):
            pass
        return self.progress


class Job(Followed):
    """A job submitted with Farm.tune (or found with Farm.job). `progress` is the last state seen."""

    def _stream(self, timeout):
        return self._farm._stub.WatchJob(tracker_pb2.WatchJobRequest(id=self.id),
                                         metadata=self._farm._metadata, timeout=timeout)

    def _progress_of(self, event):
        return JobProgress.from_proto(event.job)

    def refresh(self):
        """Asks the tracker for the job's state now."""
        self.progress = JobProgress.from_proto(
            self._farm._call("GetJob", tracker_pb2.GetJobRequest(id=self.id)))
        return self.progress

    def cancel(self):
        """Stops the job; everything it recorded stays."""
        self.progress = JobProgress.from_proto(
            self._farm._call("CancelJob", tracker_pb2.CancelJobRequest(id=self.id)))
        return self.progress

    def __repr__(self):
        return "Job(%s, %s, %d/%d trials)" % (self.id, self.state, self.progress.trials_done,
                                              self.progress.trials)
