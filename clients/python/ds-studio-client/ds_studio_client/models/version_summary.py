from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict






T = TypeVar("T", bound="VersionSummary")



@_attrs_define
class VersionSummary:
    """ A version in a list (without the config itself).

        Attributes:
            version (int):
            author (str):
            message (str):
            created_at (str):
            verdict (Verdict): DeepSpeed's verdict on a config, as we predict it.
            errors (int):
            warnings (int):
     """

    version: int
    author: str
    message: str
    created_at: str
    verdict: Verdict
    errors: int
    warnings: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        author = self.author

        message = self.message

        created_at = self.created_at

        verdict = self.verdict.value

        errors = self.errors

        warnings = self.warnings


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "version": version,
            "author": author,
            "message": message,
            "created_at": created_at,
            "verdict": verdict,
            "errors": errors,
            "warnings": warnings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        author = d.pop("author")

        message = d.pop("message")

        created_at = d.pop("created_at")

        verdict = Verdict(d.pop("verdict"))




        errors = d.pop("errors")

        warnings = d.pop("warnings")

        version_summary = cls(
            version=version,
            author=author,
            message=message,
            created_at=created_at,
            verdict=verdict,
            errors=errors,
            warnings=warnings,
        )


        version_summary.additional_properties = d
        return version_summary

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
