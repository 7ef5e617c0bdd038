"""A worker of a farm as `tunefarm workers` lists it."""

import dataclasses
from typing import Optional


@dataclasses.dataclass(frozen=True)
class Gpu:
    """The GPU a worker serves (`tunefarm worker --device opencl:P:D`), as its driver reports it."""
    api: str  # "opencl", "cuda"
    name: str
    vendor: str
    driver_version: str
    memory_bytes: int
    compute_units: int
    max_threads_per_block: int  # work-items of one work-group
    max_shared_bytes: int  # __local / shared memory of one work-group
    extensions: tuple  # ("cl_khr_fp16", ...)

    @staticmethod
    def from_proto(p):
        if not p.HasField("gpu"):
            return None
        g = p.gpu
        return Gpu(api=g.api, name=p.gpu_model, vendor=g.vendor, driver_version=g.driver_version,
                   memory_bytes=p.gpu_memory_bytes, compute_units=g.compute_units,
                   max_threads_per_block=g.max_threads_per_block,
                   max_shared_bytes=g.max_shared_bytes, extensions=tuple(g.extensions.split()))


@dataclasses.dataclass(frozen=True)
class Worker:
    worker_id: str
    device_key: str
    target: str
    state: str  # idle, measuring, session, draining
    cpu_model: str
    cores: int
    measured: int
    failures: int
    build_only: bool
    cpu_features: tuple  # ("neon", "dotprod") on a board, ("avx2", "avx512f", ...) on x86
    emulated: bool  # under qemu: its times are not a device's
    slowness: float  # how many times longer than the tracker it takes: its timeouts scale
    gpu: Optional[Gpu]  # None for a CPU worker

    @staticmethod
    def from_proto(p):
        return Worker(worker_id=p.worker_id, device_key=p.device_key, target=p.target,
                      state=p.state, cpu_model=p.cpu_model, cores=p.cores, measured=p.measured,
                      failures=p.failures, build_only=p.build_only,
                      cpu_features=tuple(p.cpu_features), emulated=p.emulated,
                      slowness=p.slowness if p.slowness >= 1 else 1.0, gpu=Gpu.from_proto(p))
