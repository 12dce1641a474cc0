from enum import StrEnum

class Phase(StrEnum):
    BACKWARD = "backward"
    FORWARD = "forward"
    GRADIENTS = "gradients"
    OPTIMIZER_STEP = "optimizer_step"

    def __str__(self) -> str:
        return str(self.value)
