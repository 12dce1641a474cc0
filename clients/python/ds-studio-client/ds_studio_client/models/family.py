from enum import StrEnum

class Family(StrEnum):
    GEMMA = "gemma"
    GEMMA2 = "gemma2"
    GEMMA3 = "gemma3"
    GPT2 = "gpt2"
    GPT_NEOX = "gpt_neox"
    LLAMA = "llama"
    MISTRAL = "mistral"
    MIXTRAL = "mixtral"
    PHI3 = "phi3"
    QWEN2 = "qwen2"
    QWEN2_MOE = "qwen2_moe"
    QWEN3 = "qwen3"
    QWEN3_MOE = "qwen3_moe"

    def __str__(self) -> str:
        return str(self.value)
