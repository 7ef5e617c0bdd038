"""A model job of a farm: a model's tuning tasks under one trial budget, each task tuned by a job
of its own on the tracker; its progress per task, a watch, wait and cancel."""

import dataclasses

from tunefarm._stubs import tracker_pb2
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
    """A model job submitted with Farm.tune_model (or found with Farm.model_job)."""

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
