from enum import StrEnum

class Norm(StrEnum):
    LAYER = "layer"
    RMS = "rms"

    def __str__(self) -> str:
        return str(self.value)
