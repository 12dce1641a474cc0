from enum import StrEnum

class OptimizerKind(StrEnum):
    FUSED_ADAM = "fused_adam"
    OTHER = "other"
    TORCH_ADAM = "torch_adam"

    def __str__(self) -> str:
        return str(self.value)
