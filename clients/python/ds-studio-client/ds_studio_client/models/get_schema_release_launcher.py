from enum import StrEnum

class GetSchemaReleaseLauncher(StrEnum):
    ACCELERATE = "accelerate"
    DEEPSPEED = "deepspeed"
    HF_TRAINER = "hf-trainer"

    def __str__(self) -> str:
        return str(self.value)
