"""tunefarm from Python: a farm's jobs, records and workers over gRPC.

    import tunefarm
    farm = tunefarm.connect("127.0.0.1:9190", token_file="farm.token")
    job = farm.tune(workload="matmul:512,512,512", key="epyc-2c", trials=64)
    for progress in job.watch():
        print(progress.trials_done, progress.best_seconds)
    print(farm.best("matmul:512,512,512", key="epyc-2c").config)
    model_job = farm.tune_model("resnet18.onnx", key="epyc-2c", trials=400,
                                input_shapes={"input": (1, 3, 224, 224)})
    model_job.wait()

    tunefarm.build_model("resnet18.onnx", "resnet18.so", input_shapes={"input": (1, 3, 224, 224)})
    module = tunefarm.runtime.load_module("resnet18.so")
    (logits,) = module.run(input=image)          # numpy in, numpy out

The package is importable with PYTHONPATH=build/python after a build; it needs Debian's
python3-grpcio (and python3-protobuf) only.
"""

from tunefarm import runtime
from tunefarm.build import build_model
from tunefarm.errors import FarmError, TunefarmError
from tunefarm.farm import Farm, connect
from tunefarm.job import Job, JobProgress
from tunefarm.model_job import ModelJob, ModelJobProgress, ModelTask
from tunefarm.records import Record
from tunefarm.workers import Worker

__all__ = ["build_model", "runtime", "connect", "Farm", "Job", "JobProgress", "ModelJob",
           "ModelJobProgress", "ModelTask", "Record", "Worker", "FarmError", "TunefarmError"]
