"""A worker of a farm as `tunefarm workers` lists it."""

import dataclasses


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

    @staticmethod
    def from_proto(p):
        return Worker(worker_id=p.worker_id, device_key=p.device_key, target=p.target,
                      state=p.state, cpu_model=p.cpu_model, cores=p.cores, measured=p.measured,
                      failures=p.failures, build_only=p.build_only,
                      cpu_features=tuple(p.cpu_features), emulated=p.emulated,
                      slowness=p.slowness if p.slowness >= 1 else 1.0)
