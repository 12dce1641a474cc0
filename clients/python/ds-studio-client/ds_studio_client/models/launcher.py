from enum import StrEnum

class Launcher(StrEnum):
    ACCELERATE = "accelerate"
    DEEPSPEED = "deepspeed"
    HF_TRAINER = "hf-trainer"

    def __str__(self) -> str:
        return str(self.value)
