from enum import StrEnum

class Source(StrEnum):
    ACCELERATE_CONFIG = "accelerate-config"
    AXOLOTL = "axolotl"
    COMMAND_LINE = "command-line"
    LLAMA_FACTORY = "llama-factory"

    def __str__(self) -> str:
        return str(self.value)
