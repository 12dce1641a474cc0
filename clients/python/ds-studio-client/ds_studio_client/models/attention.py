from enum import StrEnum

class Attention(StrEnum):
    EAGER = "eager"
    SDPA = "sdpa"

    def __str__(self) -> str:
        return str(self.value)
