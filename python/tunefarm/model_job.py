"""A model job of a farm: a model's tuning tasks under one trial budget, each task tuned by a job
of its own on the tracker; its progress per task, a watch, wait and cancel."""

import dataclasses

from tunefarm import _library
from tunefarm._stubs import tracker_pb2
from tunefarm.errors import TunefarmError
from tunefarm.job import FINISHED, STATE_NAMES, Followed


@dataclasses.dataclass(frozen=True)
class ModelTask:
    workload: str
    weight: float  # how many of the model's fused groups run it (a layout transform: 0)
    layer: int  # tasks of one layer are alternatives (a conv's direct and Winograd forms)
    job_id: str  # empty until the task first gets trials
    trials_done: int
    best_seconds: float  # 0: none yet
    state: str
    runs: float  # how often one run of the model runs it with the bests so far (0: not at all)

    @staticmethod
    def from_proto(p):
        return ModelTask(workload=p.workload, weight=p.weight,
                         layer=p.layer if p.HasField("layer") else -1, job_id=p.job_id,
                         trials_done=p.trials_done, best_seconds=p.best_seconds,
                         state=STATE_NAMES.get(p.state, "unspecified"), runs=p.runs)


@dataclasses.dataclass(frozen=True)
class ModelJobProgress:
    id: str
    state: str  # queued, running, succeeded, failed or cancelled
    model_name: str
    target: str
    device_key: str
    trials: int  # the budget over all tasks
    trials_done: int
    estimated_seconds: float  # sum over tasks of runs x best; 0 until every run task has one
    message: str
    tasks: tuple  # ModelTask, in the order submitted
    measured_seconds: float  # the tuned model end to end on a device (0: not measured)
    untuned_seconds: float
    measured_by: str

    @property
    def finished(self):
        return self.state in FINISHED

    @staticmethod
    def from_proto(p):
        return ModelJobProgress(
            id=p.id, state=STATE_NAMES.get(p.state, "unspecified"), model_name=p.model_name,
            target=p.target, device_key=p.device_key, trials=p.trials,
            trials_done=p.trials_done, estimated_seconds=p.estimated_seconds, message=p.message,
            tasks=tuple(ModelTask.from_proto(t) for t in p.tasks),
            measured_seconds=p.measured_seconds, untuned_seconds=p.untuned_seconds,
            measured_by=p.measured_by)


class ModelJob(Followed):
    """A model job submitted with Farm.tune_model (or found with Farm.model_job). `built`: what
    its last step did (build()), or None."""

    def __init__(self, farm, progress):
        super().__init__(farm, progress)
        self._source = None  # the model it was submitted from, by tune_model
        self._build_on_wait = None
        self.built = None

    def wait(self, timeout=None):
        """Blocks until the job has finished; with tune_model's `output`, then builds it."""
        super().wait(timeout=timeout)
        if self._build_on_wait is not None and self.state == "succeeded" and self.built is None:
            self.build(**self._build_on_wait)
        return self.progress

    def build(self, output, onnx=None, input_shapes=None, race=True, race_seconds=600,
              threads=None):
        """The job's last step, here (the job must have succeeded): its best records fetched,
        each conv's close rival algorithms raced on a worker of its key, the module built into
        `output`, timed against the untuned build on a worker and that latency stored with the
        job. `onnx` and `input_shapes`: the model it was tuned from (tune_model's by default).
        Returns a dict: output, speedup ("1.23x faster [1.18x, 1.29x] (95 % CI, 10 rounds)" or
        "no measurable gain: ..."), tuned_seconds, untuned_seconds, ratio, low, high,
        measured_by, race_challenges, notes."""
        source = self._source or {}
        onnx = onnx or source.get("onnx")
        if onnx is None:
            raise ValueError("onnx= (the model this job tuned) is required for a job found by id")
        if input_shapes is None:
            input_shapes = source.get("input_shapes")
        if threads is None:
            threads = source.get("threads", 0)
        if self.state != "succeeded":
            raise TunefarmError("model job %s is %s: only a succeeded job is built" %
                                (self.id, self.state))
        if not race_seconds > 0:
            raise ValueError("race_seconds must be positive, got %r" % (race_seconds,))
        farm = self._farm
        self.built = _library.finish_model_job(farm.address, farm._token_file,
                                               farm._tls_root_cert, self.id, onnx, input_shapes,
                                               output, race, race_seconds, threads)
        self.refresh()
        return self.built

    def _stream(self, timeout):
        return self._farm._stub.WatchModelJob(tracker_pb2.WatchModelJobRequest(id=self.id),
                                              metadata=self._farm._metadata, timeout=timeout)

    def _progress_of(self, event):
        return ModelJobProgress.from_proto(event)

    @property
    def tasks(self):
        return self.progress.tasks

    def refresh(self):
        """Asks the tracker for the model job's state now."""
        self.progress = ModelJobProgress.from_proto(
            self._farm._call("GetModelJob", tracker_pb2.GetModelJobRequest(id=self.id)))
        return self.progress

    def cancel(self):
        """Stops every task's job; everything they recorded stays."""
        self.progress = ModelJobProgress.from_proto(
            self._farm._call("CancelModelJob", tracker_pb2.CancelModelJobRequest(id=self.id)))
        return self.progress

    def __repr__(self):
        return "ModelJob(%s, %s, %s, %d tasks, %d/%d trials)" % (
            self.id, self.state, self.progress.model_name, len(self.progress.tasks),
            self.progress.trials_done, self.progress.trials)
