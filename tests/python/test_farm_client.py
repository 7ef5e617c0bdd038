"""tunefarm's Python client against a real tracker and worker on 127.0.0.1 (conftest.py)."""

import json
import os
import platform
import time

import grpc
import pytest

import tunefarm
from conftest import HAS_OPENCL, KEY, OPENCL_KEY, RealFarm

SMALL = "matmul:64,64,64"


def test_a_job_is_submitted_watched_and_its_best_queried(farm):
    job = farm.tune(workload=SMALL, key=KEY, trials=6, batch_size=3, tuner="random")
    assert job.id.startswith("job-")
    assert job.state in ("queued", "running")
    seen = [p.trials_done for p in job.watch(timeout=300)]
    assert job.state == "succeeded", job.progress.message
    assert seen[-1] == 6 and seen == sorted(seen)
    assert job.progress.best_seconds > 0 and job.progress.best_config
    best = farm.best(SMALL, key=KEY)
    assert best is not None and best.ok
    assert best.workload == SMALL + ":float32"
    assert best.device_key == KEY and best.measured_by
    assert best.median_seconds == pytest.approx(job.progress.best_seconds, rel=1e-6)
    assert isinstance(best.config, dict) and best.config == job.progress.best_config
    assert best.timing == "hot"
    records = farm.records(job_id=job.id)
    assert len(records) == 6 and all(r.job_id == job.id for r in records)
    assert any(j.id == job.id for j in farm.jobs(include_finished=True))
    assert farm.job(job.id).state == "succeeded"


def test_records_export_and_import_round_trip(farm, tmp_path):
    farm.tune(workload=SMALL, key=KEY, trials=2, tuner="random").wait(timeout=300)
    exported = tmp_path / "records.jsonl"
    assert farm.export_records(str(exported)) > 0
    lines = exported.read_text().splitlines()
    assert lines and all(json.loads(line)["workload"] for line in lines)
    # The same lines under another device key come back as new records of that key.
    moved = tmp_path / "moved.jsonl"
    with open(moved, "w") as out:
        for line in lines:
            record = json.loads(line)
            record["device_key"] = "py-imported"
            out.write(json.dumps(record) + "\n")
    assert farm.import_records(str(moved)) == len(lines)
    assert farm.best(SMALL, key="py-imported") is not None


def test_a_job_can_be_cancelled_and_keeps_its_records(farm):
    job = farm.tune(workload="matmul:96,96,96", key="nobody-serves-this", trials=50)
    assert "waiting: no worker with device key" in job.refresh().message
    assert job.cancel().state == "cancelled"
    assert job.wait(timeout=10).state == "cancelled"


def test_workers_are_listed(farm):
    workers = farm.workers(key=KEY)
    assert len(workers) == 1
    assert workers[0].state in ("idle", "measuring", "session")
    assert workers[0].target.startswith("llvm")
    # This machine, natively: not emulated, its ISA listed, about as fast as the tracker.
    assert not workers[0].emulated
    if platform.machine() == "x86_64":
        assert "sse4_2" in workers[0].cpu_features
    assert 1 <= workers[0].slowness <= 100


@pytest.mark.skipif(not HAS_OPENCL, reason="no OpenCL device installed (pocl-opencl-icd)")
def test_an_opencl_worker_reports_its_gpu_and_tunes_for_it(farm):
    for _ in range(200):
        workers = farm.workers(key=OPENCL_KEY)
        if workers:
            break
        time.sleep(0.05)
    assert len(workers) == 1
    gpu = workers[0].gpu
    assert gpu is not None and gpu.api == "opencl"
    assert gpu.compute_units > 0 and gpu.max_threads_per_block > 0 and gpu.max_shared_bytes > 0
    assert workers[0].target.startswith("opencl")
    assert farm.workers(key=KEY)[0].gpu is None
    job = farm.tune(workload="matmul:64,64,64", key=OPENCL_KEY, target=workers[0].target,
                    trials=4, tuner="random")
    assert job.wait(timeout=300).state == "succeeded", job.progress.message
    assert job.progress.trials_done == 4


def test_a_template_job_tunes_a_script_with_its_sizes(farm):
    source = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "tune_matmul.te")
    job = farm.tune(template=source, bind={"n": 64}, key=KEY, trials=3, tuner="random")
    assert job.wait(timeout=300).state == "succeeded", job.progress.message
    assert job.progress.workload.startswith("script/tune_matmul@")


def test_bad_input_raises_clear_exceptions(farm, real_farm, tmp_path):
    with pytest.raises(tunefarm.FarmError) as bad_key:
        farm.tune(workload="matmul:1,2", key=KEY)
    assert bad_key.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "matmul takes 3 arguments" in bad_key.value.details
    with pytest.raises(tunefarm.FarmError) as cuda:
        farm.tune(workload=SMALL, key=KEY, target="cuda")
    assert "no worker of device key 'py-cpu' can run target 'cuda" in str(cuda.value)
    with pytest.raises(ValueError, match="exactly one of workload= and template="):
        farm.tune(key=KEY)
    with pytest.raises(ValueError, match="trials must be in 1"):
        farm.tune(workload=SMALL, key=KEY, trials=0)
    with pytest.raises(ValueError, match="tuner must be one of"):
        farm.tune(workload=SMALL, key=KEY, tuner="annealing")
    with pytest.raises(FileNotFoundError):
        farm.tune(template=str(tmp_path / "missing.te"), key=KEY)
    with pytest.raises(tunefarm.FarmError) as missing:
        farm.job("job-00000000")
    assert missing.value.code == grpc.StatusCode.NOT_FOUND
    wrong = tmp_path / "wrong.token"
    wrong.write_text("nope\n")
    with tunefarm.connect(real_farm.address, token_file=str(wrong)) as intruder:
        with pytest.raises(tunefarm.FarmError) as denied:
            intruder.workers()
    assert denied.value.code == grpc.StatusCode.UNAUTHENTICATED
    assert "token_file" in str(denied.value)
    with pytest.raises(FileNotFoundError):
        tunefarm.connect(real_farm.address, token_file=str(tmp_path / "no.token"))
    with pytest.raises(ValueError, match="HOST:PORT"):
        tunefarm.connect("localhost")


def test_an_unreachable_tracker_raises_instead_of_hanging(tmp_path):
    with tunefarm.connect("127.0.0.1:1", timeout=2) as nowhere:
        with pytest.raises(tunefarm.FarmError) as gone:
            nowhere.workers()
    assert gone.value.code == grpc.StatusCode.UNAVAILABLE
    assert "unreachable" in str(gone.value)


def test_a_watch_outlives_a_tracker_restart_and_raises_once_the_tracker_is_gone(tmp_path,
                                                                              monkeypatch):
    own = RealFarm(str(tmp_path))  # a farm of its own: its tracker is killed
    try:
        with tunefarm.connect(own.address, token_file=own.token_file) as farm:
            for _ in range(250):
                if farm.workers(key=KEY):
                    break
                time.sleep(0.02)
            job = farm.tune(workload="matmul:96,96,96", key=KEY, trials=24, batch_size=4,
                            tuner="random")
            watch = job.watch(timeout=300)
            assert not next(watch).finished
            # The stream drops mid-watch; the restarted tracker resumes the job from its
            # database and the same watch follows it to the end.
            own.restart_tracker()
            for _ in watch:
                pass
            assert job.state == "succeeded", job.progress.message
            assert job.progress.trials_done == 24

            monkeypatch.setattr(tunefarm.job.Followed, "RECONNECT_PAUSE_S", 0.2)
            gone = farm.tune(workload="matmul:80,80,80", key=KEY, trials=400, batch_size=4,
                             tuner="random")
            own.kill_tracker()
            started = time.monotonic()
            with pytest.raises(tunefarm.FarmError) as lost:
                gone.wait(timeout=300)
            assert lost.value.code == grpc.StatusCode.UNAVAILABLE
            assert time.monotonic() - started < 60, "raised after its reconnects, not hung"
    finally:
        own.stop()
