from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.version import Version





T = TypeVar("T", bound="VersionConflictDetails")



@_attrs_define
class VersionConflictDetails:
    """ `details` of a `version_conflict` (409): the head that was saved meanwhile.

        Attributes:
            head_version (int):
            head (Version): One immutable version: the text exactly as saved, its parsed value and its diagnostics.
     """

    head_version: int
    head: Version
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.version import Version # noqa: PLC0415
        head_version = self.head_version

        head = self.head.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "head_version": head_version,
            "head": head,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.version import Version # noqa: PLC0415
        d = dict(src_dict)
        head_version = d.pop("head_version")

        head = Version.from_dict(d.pop("head"))




        version_conflict_details = cls(
            head_version=head_version,
            head=head,
        )


        version_conflict_details.additional_properties = d
        return version_conflict_details

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
