from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Change")



@_attrs_define
class Change:
    """ A semantic change between two configs at JSON-pointer level.

        Attributes:
            op (str): `add`, `remove` or `replace`.
            path (str):
            old (Any | Unset):
            new (Any | Unset):
     """

    op: str
    path: str
    old: Any | Unset = UNSET
    new: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        op = self.op

        path = self.path

        old = self.old

        new = self.new


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "op": op,
            "path": path,
        })
        if old is not UNSET:
            field_dict["old"] = old
        if new is not UNSET:
            field_dict["new"] = new

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        op = d.pop("op")

        path = d.pop("path")

        old = d.pop("old", UNSET)

        new = d.pop("new", UNSET)

        change = cls(
            op=op,
            path=path,
            old=old,
            new=new,
        )


        change.additional_properties = d
        return change

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
