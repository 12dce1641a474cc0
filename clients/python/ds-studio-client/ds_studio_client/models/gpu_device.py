from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GpuDevice")



@_attrs_define
class GpuDevice:
    """ One GPU a runner may use, as NVML reports it.

        Attributes:
            index (int): NVML's index (the `CUDA_VISIBLE_DEVICES` number jobs get).
            name (str):
            memory_bytes (int): Total memory in bytes.
            compute_capability (None | str | Unset): CUDA compute capability, `9.0`.
     """

    index: int
    name: str
    memory_bytes: int
    compute_capability: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        name = self.name

        memory_bytes = self.memory_bytes

        compute_capability: None | str | Unset
        if isinstance(self.compute_capability, Unset):
            compute_capability = UNSET
        else:
            compute_capability = self.compute_capability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "index": index,
            "name": name,
            "memory_bytes": memory_bytes,
        })
        if compute_capability is not UNSET:
            field_dict["compute_capability"] = compute_capability

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        name = d.pop("name")

        memory_bytes = d.pop("memory_bytes")

        def _parse_compute_capability(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        compute_capability = _parse_compute_capability(d.pop("compute_capability", UNSET))


        gpu_device = cls(
            index=index,
            name=name,
            memory_bytes=memory_bytes,
            compute_capability=compute_capability,
        )


        gpu_device.additional_properties = d
        return gpu_device

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
