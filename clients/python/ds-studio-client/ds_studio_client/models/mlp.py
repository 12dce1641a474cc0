from enum import StrEnum

class Mlp(StrEnum):
    GATED = "gated"
    PLAIN = "plain"

    def __str__(self) -> str:
        return str(self.value)
