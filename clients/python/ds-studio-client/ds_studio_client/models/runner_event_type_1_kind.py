from enum import StrEnum

class RunnerEventType1Kind(StrEnum):
    LOG = "log"

    def __str__(self) -> str:
        return str(self.value)
