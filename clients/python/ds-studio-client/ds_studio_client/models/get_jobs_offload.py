from enum import StrEnum

class GetJobsOffload(StrEnum):
    ANY = "any"
    CPU = "cpu"
    NONE = "none"
    NVME = "nvme"

    def __str__(self) -> str:
        return str(self.value)
