from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Experts")



@_attrs_define
class Experts:
    """ Mixture-of-experts layers.

        Attributes:
            total (int): Routed experts in each sparse layer.
            per_token (int): Routed experts each token goes through.
            intermediate (int): Each routed expert's MLP width.
            shared_intermediate (int): The width of the shared expert every token also goes through (0: none).
            shared_gate (bool): The shared expert's output is gated by a one-unit linear layer (Qwen2-MoE).
            sparse_layers (int): How many of the layers are sparse (the others have a dense MLP).
     """

    total: int
    per_token: int
    intermediate: int
    shared_intermediate: int
    shared_gate: bool
    sparse_layers: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        total = self.total

        per_token = self.per_token

        intermediate = self.intermediate

        shared_intermediate = self.shared_intermediate

        shared_gate = self.shared_gate

        sparse_layers = self.sparse_layers


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total": total,
            "per_token": per_token,
            "intermediate": intermediate,
            "shared_intermediate": shared_intermediate,
            "shared_gate": shared_gate,
            "sparse_layers": sparse_layers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        per_token = d.pop("per_token")

        intermediate = d.pop("intermediate")

        shared_intermediate = d.pop("shared_intermediate")

        shared_gate = d.pop("shared_gate")

        sparse_layers = d.pop("sparse_layers")

        experts = cls(
            total=total,
            per_token=per_token,
            intermediate=intermediate,
            shared_intermediate=shared_intermediate,
            shared_gate=shared_gate,
            sparse_layers=sparse_layers,
        )


        experts.additional_properties = d
        return experts

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
