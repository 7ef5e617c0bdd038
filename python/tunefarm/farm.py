"""A connection to a farm's tracker: submit and follow tuning jobs, query records and workers."""

import os

import grpc

from tunefarm import _library
from tunefarm._stubs import common_pb2, tracker_pb2, tracker_pb2_grpc
from tunefarm.errors import farm_error
from tunefarm.job import Job, JobProgress
from tunefarm.model_job import ModelJob, ModelJobProgress
from tunefarm.records import Record
from tunefarm.workers import Worker

# As the CLI's flags: the same limits, refused here before anything is sent.
_TUNERS = ("xgb", "random", "grid", "ga")
_EXPORT_CHUNK_BYTES = 1 << 20


def _read_token(token_file):
    if token_file is None:
        return ""
    with open(token_file, encoding="utf-8") as f:  # FileNotFoundError names the file
        token = f.readline().strip()
    if not token:
        raise ValueError("the token file %s is empty" % token_file)
    return token


def _positive_int(name, value, low=1, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an int, got %r" % (name, value))
    if value < low or (high is not None and value > high):
        raise ValueError("%s must be in %d..%s, got %d" % (name, low, high or "", value))
    return value


def connect(address, token_file=None, tls_root_cert=None, timeout=30.0):
    """A Farm at HOST:PORT. `token_file` holds the farm's token (`tunefarm tracker --token-file`);
    `tls_root_cert` a CA certificate (PEM) to verify a TLS tracker. `timeout`: seconds a call may
    take (watches excepted)."""
    return Farm(address, token_file=token_file, tls_root_cert=tls_root_cert, timeout=timeout)


class Farm:
    def __init__(self, address, token_file=None, tls_root_cert=None, timeout=30.0):
        if not isinstance(address, str) or ":" not in address:
            raise ValueError("address must be HOST:PORT, got %r" % (address,))
        self.address = address
        self.timeout = timeout
        self._token_file, self._tls_root_cert = token_file, tls_root_cert
        token = _read_token(token_file)
        self._metadata = (("authorization", "Bearer " + token),) if token else ()
        if tls_root_cert is not None:
            with open(tls_root_cert, "rb") as f:
                credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
            self._channel = grpc.secure_channel(address, credentials)
        else:
            self._channel = grpc.insecure_channel(address)
        self._stub = tracker_pb2_grpc.TrackerServiceStub(self._channel)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, method, request):
        try:
            return getattr(self._stub, method)(request, metadata=self._metadata,
                                               timeout=self.timeout)
        except grpc.RpcError as e:
            raise farm_error(self.address, e) from None

    # --- tuning jobs ---

    def tune(self, workload=None, template=None, bind=None, key=None, target="llvm", trials=100,
             tuner="xgb", batch_size=16, priority=1, seed=0, transfer=True):
        """Submits a tuning job: a workload key (`matmul:1024,1024,1024`) or a TE script with cfg
        knobs (`template=`, its sizes in `bind={"n": 512}`), measured on the workers of `key`."""
        if (workload is None) == (template is None):
            raise ValueError("give exactly one of workload= and template=")
        if not key:
            raise ValueError("key= (the device key of the workers that measure it) is required")
        if tuner not in _TUNERS:
            raise ValueError("tuner must be one of %s, got %r" % (", ".join(_TUNERS), tuner))
        request = tracker_pb2.SubmitJobRequest(
            target=target, device_key=key, trials=_positive_int("trials", trials),
            tuner=tuner, batch_size=_positive_int("batch_size", batch_size),
            priority=_positive_int("priority", priority, 1, 100), seed=seed, transfer=transfer)
        if workload is not None:
            request.workload = workload
            if bind:
                raise ValueError("bind= applies to template= only")
        else:
            with open(template, encoding="utf-8") as f:
                request.script_source = f.read()
            request.script_name = os.path.basename(template)
            for name, value in (bind or {}).items():
                request.bindings[name] = int(value)
        return Job(self, JobProgress.from_proto(self._call("SubmitJob", request)))

    def job(self, job_id):
        """The job with this id (NotFound as a FarmError)."""
        return Job(self, JobProgress.from_proto(
            self._call("GetJob", tracker_pb2.GetJobRequest(id=job_id))))

    def jobs(self, include_finished=False, limit=100):
        """The farm's jobs, newest first (queued and running only unless include_finished)."""
        reply = self._call("ListJobs", tracker_pb2.ListJobsRequest(
            include_finished=include_finished, limit=_positive_int("limit", limit)))
        return [Job(self, JobProgress.from_proto(j)) for j in reply.jobs]

    # --- model jobs ---

    _TIMINGS = {"hot": common_pb2.CACHE_FLUSH_NONE, "weights": common_pb2.CACHE_FLUSH_WEIGHTS,
                "cold": common_pb2.CACHE_FLUSH_ALL}

    def tune_model(self, onnx, key, trials=400, input_shapes=None, target="llvm", tuner="xgb",
                   batch_size=16, parallel_tasks=2, priority=1, seed=0, transfer=True,
                   round_robin=False, layouts=None, timing="weights", threads=0, output=None,
                   race=True, race_seconds=600):
        """Submits a model job: the model's tuning tasks (found here, as `tunefarm model tune`
        finds them) under one budget of `trials`, each tuned on the workers of `key`.

        `input_shapes`: {"input": (1, 3, 224, 224)}; `layouts`: None (tune the channel blocks
        when the budget gives each of their tasks a batch), True or False; `timing`: how each
        candidate is timed, "weights" (its weights evicted before every call, as in the model),
        "cold" or "hot"; `threads`: the kernels' parallel width on the workers (0: theirs).

        With `output`, the job's wait() ends as `tunefarm model tune --tracker -o` does: the
        module built there with the farm's best records (each conv's algorithm raced on a
        worker of the key first, unless race=False), timed against the untuned build on a worker
        and that latency stored with the job (`job.built`); job.build() does it on demand."""
        if not key:
            raise ValueError("key= (the device key of the workers that measure it) is required")
        if not os.path.exists(onnx):
            raise FileNotFoundError(onnx)
        if tuner not in _TUNERS:
            raise ValueError("tuner must be one of %s, got %r" % (", ".join(_TUNERS), tuner))
        if timing not in self._TIMINGS:
            raise ValueError("timing must be one of %s, got %r" % (", ".join(self._TIMINGS),
                                                                  timing))
        if layouts not in (None, True, False):
            raise ValueError("layouts must be None, True or False, got %r" % (layouts,))
        trials = _positive_int("trials", trials)
        batch_size = _positive_int("batch_size", batch_size)
        found = _library.model_tuning_tasks(onnx, input_shapes, target, trials, batch_size, layouts)
        measure = common_pb2.MeasureOptions(threads=int(threads),
                                            cache_flush=self._TIMINGS[timing])
        if timing != "hot":
            # One call per repeat, after the idle core's clock came back (as the CLI times them).
            measure.number, measure.warmup_ms = 1, 50
        request = tracker_pb2.SubmitModelJobRequest(
            model_name=os.path.basename(onnx), target=target, device_key=key, trials=trials,
            batch_size=batch_size,
            parallel_tasks=_positive_int("parallel_tasks", parallel_tasks), tuner=tuner,
            seed=seed, measure=measure, priority=_positive_int("priority", priority, 1, 100),
            no_transfer=not transfer, round_robin=round_robin,
            layout_choice=found["layout_choice"])
        for task in found["tasks"]:
            added = request.tasks.add(workload=task["workload_key"], weight=task["weight"])
            if task["layer"] >= 0:
                added.layer = task["layer"]
        job = ModelJob(self, ModelJobProgress.from_proto(self._call("SubmitModelJob", request)))
        job._source = {"onnx": onnx, "input_shapes": input_shapes, "threads": int(threads)}
        if output is not None:
            job._build_on_wait = {"output": output, "race": race, "race_seconds": race_seconds}
        return job

    def model_job(self, job_id):
        """The model job with this id (NotFound as a FarmError)."""
        return ModelJob(self, ModelJobProgress.from_proto(
            self._call("GetModelJob", tracker_pb2.GetModelJobRequest(id=job_id))))

    def model_jobs(self, include_finished=False, limit=100):
        """The farm's model jobs, newest first (queued and running only unless include_finished)."""
        reply = self._call("ListModelJobs", tracker_pb2.ListModelJobsRequest(
            include_finished=include_finished, limit=_positive_int("limit", limit)))
        return [ModelJob(self, ModelJobProgress.from_proto(j)) for j in reply.model_jobs]

    # --- records ---

    def best(self, workload, key=None, target=None):
        """The fastest ok record of a workload (on `key`'s devices and `target`, when given), or
        None when there is none."""
        reply = self._call("QueryBest", tracker_pb2.QueryBestRequest(
            workload=workload, target=target or "", device_key=key or ""))
        return Record.from_proto(reply.best[0]) if reply.best else None

    def records(self, workload=None, job_id=None, key=None, target=None, limit=100):
        """A workload's (or a job's) records, newest first."""
        if (workload is None) == (job_id is None):
            raise ValueError("give exactly one of workload= and job_id=")
        reply = self._call("ListRecords", tracker_pb2.ListRecordsRequest(
            workload=workload or "", job_id=job_id or "", device_key=key or "",
            target=target or "", limit=_positive_int("limit", limit)))
        return [Record.from_proto(r) for r in reply.records]

    def export_records(self, path):
        """Writes every record as JSON lines (the format of `tunefarm records export`); the number
        of bytes written."""
        written = 0
        try:
            with open(path, "wb") as out:
                for chunk in self._stub.ExportRecords(tracker_pb2.ExportRecordsRequest(),
                                                      metadata=self._metadata,
                                                      timeout=self.timeout):
                    out.write(chunk.lines)
                    written += len(chunk.lines)
        except grpc.RpcError as e:
            raise farm_error(self.address, e) from None
        return written

    def import_records(self, path):
        """Reads JSON lines (`tunefarm records export`'s) into the farm's database; how many
        records it stored. A malformed line refuses the whole file."""
        with open(path, "rb") as f:
            data = f.read()

        def chunks():
            for at in range(0, len(data), _EXPORT_CHUNK_BYTES):
                yield tracker_pb2.RecordLines(lines=data[at:at + _EXPORT_CHUNK_BYTES])
            yield tracker_pb2.RecordLines(last=True)

        try:
            reply = self._stub.ImportRecords(chunks(), metadata=self._metadata,
                                             timeout=self.timeout)
        except grpc.RpcError as e:
            raise farm_error(self.address, e) from None
        return reply.imported

    # --- workers ---

    def workers(self, key=None):
        """The connected workers (of `key`, when given)."""
        reply = self._call("ListWorkers", tracker_pb2.ListWorkersRequest(device_key=key or ""))
        return [Worker.from_proto(w) for w in reply.workers]

    def __repr__(self):
        return "Farm(%s)" % self.address
