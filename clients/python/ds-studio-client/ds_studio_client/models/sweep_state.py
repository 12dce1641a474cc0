from enum import StrEnum

class SweepState(StrEnum):
    CANCELLED = "cancelled"
    FINISHED = "finished"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
