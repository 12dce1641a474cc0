from enum import StrEnum

class GetSchemaReleaseKeywords(StrEnum):
    EDITOR = "editor"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
