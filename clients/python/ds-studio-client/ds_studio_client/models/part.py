from enum import StrEnum

class Part(StrEnum):
    ACCUMULATED_GRADIENTS = "accumulated_gradients"
    ACTIVATIONS = "activations"
    BUCKETS = "buckets"
    GATHERED_PARAMETERS = "gathered_parameters"
    GRADIENTS = "gradients"
    HOST_MODEL = "host_model"
    LOGITS = "logits"
    OFFLOADED = "offloaded"
    OPTIMIZER_STATES = "optimizer_states"
    OPTIMIZER_STEP = "optimizer_step"
    PARAMETERS = "parameters"

    def __str__(self) -> str:
        return str(self.value)
