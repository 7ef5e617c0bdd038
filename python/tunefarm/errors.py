"""The exceptions tunefarm raises: a farm's refusal carries the gRPC status code and message."""

import grpc


class TunefarmError(Exception):
    """Anything tunefarm refuses or cannot do (a bad argument, a missing file)."""


class FarmError(TunefarmError):
    """A call to the tracker failed: `code` is the grpc.StatusCode, `details` the tracker's words."""

    def __init__(self, address, code, details):
        self.address = address
        self.code = code
        self.details = details
        super().__init__("tracker %s: %s: %s" % (address, code.name, details))


def farm_error(address, error):
    """The FarmError of a grpc.RpcError, saying what to do where the cause is a common one."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    details = error.details() if hasattr(error, "details") else str(error)
    if code == grpc.StatusCode.UNAVAILABLE:
        details = "unreachable: %s" % details
    elif code == grpc.StatusCode.UNAUTHENTICATED:
        details = "%s (give the farm's token: connect(..., token_file=...))" % details
    return FarmError(address, code, details)
