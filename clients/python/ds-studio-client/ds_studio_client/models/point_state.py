from enum import StrEnum

class PointState(StrEnum):
    CANCELLED = "cancelled"
    FAILED = "failed"
    PRUNED = "pruned"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
