from enum import StrEnum

class RunnerEventType0Kind(StrEnum):
    METRIC = "metric"

    def __str__(self) -> str:
        return str(self.value)
