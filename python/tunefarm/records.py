"""Records as Python values: one measured candidate of a workload on a device."""

import dataclasses
import json

from tunefarm._stubs import common_pb2

_FLUSH_NAMES = {0: "hot", 1: "cold", 2: "weights"}


@dataclasses.dataclass(frozen=True)
class Record:
    workload: str
    target: str
    device_key: str
    config: dict
    repeat_seconds: tuple
    median_seconds: float
    gflops: float
    error_kind: str
    error_message: str
    measured_by: str
    built_by: str
    job_id: str
    timestamp_ms: int
    timing: str  # hot, weights or cold: how each timed call found the caches
    spread: float
    noisy: bool
    emulated: bool  # measured under an emulator: the emulator's times, not the device's

    @property
    def ok(self):
        return self.error_kind == "ok"

    @staticmethod
    def from_proto(p):
        return Record(workload=p.workload_key, target=p.target, device_key=p.device_key,
                      config=json.loads(p.config_json) if p.config_json else {},
                      repeat_seconds=tuple(p.repeat_seconds), median_seconds=p.median_seconds,
                      gflops=p.gflops, error_kind=p.error_kind, error_message=p.error_message,
                      measured_by=p.measured_by, built_by=p.built_by, job_id=p.job_id,
                      timestamp_ms=p.timestamp_ms,
                      timing=_FLUSH_NAMES.get(p.cache_flush, "hot"), spread=p.spread,
                      noisy=p.noisy, emulated=p.emulated)


__all__ = ["Record", "common_pb2"]
