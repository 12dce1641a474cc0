from enum import StrEnum

class FailureReason(StrEnum):
    CUDA_EXTENSION = "cuda_extension"
    DATA_LOADER = "data_loader"
    LOSS_SCALE_AT_MINIMUM = "loss_scale_at_minimum"
    MISSING_MODULE = "missing_module"
    NCCL_ERROR = "nccl_error"
    NCCL_TIMEOUT = "nccl_timeout"
    NON_FINITE_LOSS = "non_finite_loss"
    OUT_OF_MEMORY = "out_of_memory"
    STALLED = "stalled"

    def __str__(self) -> str:
        return str(self.value)
