from enum import StrEnum

class SuggestionKind(StrEnum):
    MICRO_BATCH = "micro_batch"
    STAGE = "stage"

    def __str__(self) -> str:
        return str(self.value)
