from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="FilledValue")



@_attrs_define
class FilledValue:
    """ A value the launcher wrote into the config before DeepSpeed read it, and the argument (or
    rule) it came from.

        Attributes:
            path (str): Dotted key, `train_micro_batch_size_per_gpu`.
            value (Any):
            from_ (str): `per_device_train_batch_size`, `hidden_size²`, ...
     """

    path: str
    value: Any
    from_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        path = self.path

        value = self.value

        from_ = self.from_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "path": path,
            "value": value,
            "from": from_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        value = d.pop("value")

        from_ = d.pop("from")

        filled_value = cls(
            path=path,
            value=value,
            from_=from_,
        )


        filled_value.additional_properties = d
        return filled_value

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
