from enum import StrEnum

class FailureReason(StrEnum):
    OUT_OF_MEMORY = "out_of_memory"

    def __str__(self) -> str:
        return str(self.value)
