"""Model jobs from Python against a real tracker and worker: a PyTorch-exported CNN's tasks found
through the driver's C ABI, submitted as one model job, watched to the end, listed, cancelled;
bad input raises before anything is sent."""

import pytest

import tunefarm
from conftest import KEY

torch = pytest.importorskip("torch")


class TwoConvs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(16, 16, 1)

    def forward(self, x):
        return self.conv2(torch.relu(self.conv1(x)))


@pytest.fixture(scope="module")
def onnx(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("model_job") / "two_convs.onnx")
    torch.manual_seed(0)
    torch.onnx.export(TwoConvs().eval(), torch.randn(1, 8, 8, 8), path, opset_version=13,
                      input_names=["image"], output_names=["out"],
                      dynamic_axes={"image": {0: "batch"}, "out": {0: "batch"}})
    return path


SHAPES = {"image": (1, 8, 8, 8)}


def test_a_model_job_tunes_every_task_under_one_budget_and_builds_its_module(farm, onnx,
                                                                             tmp_path):
    output = str(tmp_path / "tuned.so")
    job = farm.tune_model(onnx, key=KEY, trials=12, batch_size=4, input_shapes=SHAPES,
                          tuner="random", layouts=False, output=output, race=False)
    assert job.progress.model_name == "two_convs.onnx"
    workloads = [t.workload for t in job.tasks]
    # The 3x3 conv is two tasks of one layer (direct and Winograd), the 1x1 conv one more.
    assert len(workloads) == 3, workloads
    assert workloads[0].startswith("conv2d_nchwc:1,8,8,8,16,3,3,")
    assert workloads[1].startswith("conv2d_winograd_nchwc:1,8,8,8,16,3,3,")
    assert job.tasks[0].layer == job.tasks[1].layer != job.tasks[2].layer
    seen = [p.trials_done for p in job.watch(timeout=240)]
    assert seen and seen == sorted(seen)
    # wait() on the finished job runs its last step: built with the farm's best records and
    # timed against the untuned build on a worker, the latency stored with the job.
    final = job.wait(timeout=240)
    built = job.built
    assert built["output"] == output
    assert built["rounds"] == 10 and built["low"] <= built["ratio"] <= built["high"]
    assert "(95 % CI, 10 rounds)" in built["speedup"]
    assert built["tuned_seconds"] > 0 and built["untuned_seconds"] > 0
    assert any(n.startswith("wrote " + output) for n in built["notes"])
    assert final.measured_seconds > 0 and final.measured_by == built["measured_by"]
    with tunefarm.runtime.load_module(output) as module:
        assert module.inputs[0].shape == (1, 8, 8, 8)
    assert final.state == "succeeded", final.message
    assert final.trials_done == 12
    assert all(t.trials_done >= 4 and t.best_seconds > 0 for t in final.tasks)
    assert final.estimated_seconds > 0
    # The same job through a lookup and in the list.
    assert farm.model_job(job.id).progress.trials_done == 12
    assert job.id in [j.id for j in farm.model_jobs(include_finished=True)]
    # Every task's best is a record of the key.
    best = farm.best(final.tasks[2].workload, key=KEY)
    assert best is not None and best.median_seconds > 0


def test_a_model_job_can_be_cancelled(farm, onnx):
    job = farm.tune_model(onnx, key="nobody-serves-this", trials=8, batch_size=4,
                          input_shapes=SHAPES, layouts=False, output="never-written.so")
    assert job.cancel().state == "cancelled"
    assert job.wait(timeout=10).state == "cancelled"
    assert job.built is None
    with pytest.raises(tunefarm.TunefarmError, match="cancelled"):
        job.build("never-written.so")
    with pytest.raises(ValueError, match="onnx="):
        farm.model_job(job.id).build("never-written.so")


def test_bad_model_jobs_raise_before_anything_is_sent(farm, onnx, tmp_path):
    before = len(farm.model_jobs(include_finished=True))
    with pytest.raises(FileNotFoundError):
        farm.tune_model(str(tmp_path / "missing.onnx"), key=KEY)
    with pytest.raises(ValueError, match="key="):
        farm.tune_model(onnx, key="", input_shapes=SHAPES)
    with pytest.raises(ValueError, match="timing"):
        farm.tune_model(onnx, key=KEY, input_shapes=SHAPES, timing="lukewarm")
    with pytest.raises(ValueError, match="trials"):
        farm.tune_model(onnx, key=KEY, input_shapes=SHAPES, trials=0)
    # The batch dimension is symbolic: without a shape the import says which input needs one.
    with pytest.raises(tunefarm.TunefarmError, match="image"):
        farm.tune_model(onnx, key=KEY)
    with pytest.raises(tunefarm.TunefarmError, match="nosuch"):
        farm.tune_model(onnx, key=KEY, input_shapes={"nosuch": (1, 8, 8, 8)})
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"not a model")
    with pytest.raises(tunefarm.TunefarmError):
        farm.tune_model(str(garbage), key=KEY)
    assert len(farm.model_jobs(include_finished=True)) == before


def test_build_model_runs_in_process_and_refuses_bad_input(onnx, tmp_path):
    module = tunefarm.build_model(onnx, str(tmp_path / "two_convs.so"), input_shapes=SHAPES)
    with tunefarm.runtime.load_module(module) as m:
        assert m.inputs[0].shape == (1, 8, 8, 8)
    with pytest.raises(tunefarm.TunefarmError, match="target"):
        tunefarm.build_model(onnx, str(tmp_path / "x.so"), input_shapes=SHAPES, target="bogus")
    with pytest.raises(tunefarm.TunefarmError, match="nosuchpass"):
        tunefarm.build_model(onnx, str(tmp_path / "x.so"), input_shapes=SHAPES,
                             disable=["nosuchpass"])
    with pytest.raises(ValueError, match="positive"):
        tunefarm.build_model(onnx, str(tmp_path / "x.so"), input_shapes={"image": (1, 0, 8, 8)})
    with pytest.raises(FileNotFoundError):
        tunefarm.build_model(onnx, str(tmp_path / "x.so"), input_shapes=SHAPES,
                             db=str(tmp_path / "missing.db"), device_key=KEY)
