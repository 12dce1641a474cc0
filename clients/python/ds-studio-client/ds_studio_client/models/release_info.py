from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ReleaseInfo")



@_attrs_define
class ReleaseInfo:
    """ One DeepSpeed release ds-studio judges configs for.

        Attributes:
            version (str): `0.18.4`.
            added (list[str]): Keys that arrive in this release (dotted paths).
            removed (list[str]): Keys this release removes or stops reading.
            defaults_changed (list[str]): Keys whose default changes in this release.
     """

    version: str
    added: list[str]
    removed: list[str]
    defaults_changed: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        added = self.added



        removed = self.removed



        defaults_changed = self.defaults_changed




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "version": version,
            "added": added,
            "removed": removed,
            "defaults_changed": defaults_changed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        added = cast(list[str], d.pop("added"))


        removed = cast(list[str], d.pop("removed"))


        defaults_changed = cast(list[str], d.pop("defaults_changed"))


        release_info = cls(
            version=version,
            added=added,
            removed=removed,
            defaults_changed=defaults_changed,
        )


        release_info.additional_properties = d
        return release_info

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
