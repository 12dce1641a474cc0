from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Capacity")



@_attrs_define
class Capacity:
    """ The memory one rank of a job may use on a runner.

        Attributes:
            bytes_per_rank (int): Bytes one rank may use: its GPU's usable memory, or its share of the host's.
            device (str): The device as people name it: `NVIDIA H200 · 139.8 GiB`, `CPU · 7.8 GiB` (host memory).
            host (bool): A CPU runner: the ranks share host memory.
            host_bytes_per_node (int | Unset): Host memory the node's ranks may use together (nine tenths of it; 0: not
                known). On a
                GPU runner the CPU side of the estimate (the model each rank builds, offloaded states)
                must fit it too.
     """

    bytes_per_rank: int
    device: str
    host: bool
    host_bytes_per_node: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bytes_per_rank = self.bytes_per_rank

        device = self.device

        host = self.host

        host_bytes_per_node = self.host_bytes_per_node


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bytes_per_rank": bytes_per_rank,
            "device": device,
            "host": host,
        })
        if host_bytes_per_node is not UNSET:
            field_dict["host_bytes_per_node"] = host_bytes_per_node

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bytes_per_rank = d.pop("bytes_per_rank")

        device = d.pop("device")

        host = d.pop("host")

        host_bytes_per_node = d.pop("host_bytes_per_node", UNSET)

        capacity = cls(
            bytes_per_rank=bytes_per_rank,
            device=device,
            host=host,
            host_bytes_per_node=host_bytes_per_node,
        )


        capacity.additional_properties = d
        return capacity

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
