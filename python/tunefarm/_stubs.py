"""The generated tunefarm.v1 messages and stubs (build/python/tunefarm/_generated, made by the build
from proto/tunefarm/v1 with Debian's protoc and grpc_python_plugin)."""

try:
    from tunefarm._generated.proto.tunefarm.v1 import common_pb2, tracker_pb2, tracker_pb2_grpc
except ImportError as e:  # a source checkout, not the build's copy
    raise ImportError("tunefarm's generated stubs are missing: build the project and use "
                      "PYTHONPATH=build/python (%s)" % e) from e

__all__ = ["common_pb2", "tracker_pb2", "tracker_pb2_grpc"]
