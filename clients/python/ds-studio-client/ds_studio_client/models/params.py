from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Params")



@_attrs_define
class Params:
    """ An architecture's parameters, part by part.

        Attributes:
            embeddings (int): Token (and learned position) embeddings.
            attention (int): Every layer's attention: projections, their biases, query/key norms.
            mlp (int): Every dense MLP.
            experts (int): Every sparse layer's router, routed experts and shared expert.
            norms (int): Every norm layer, the final one included.
            lm_head (int): The output layer when it is not tied to the embeddings.
     """

    embeddings: int
    attention: int
    mlp: int
    experts: int
    norms: int
    lm_head: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        embeddings = self.embeddings

        attention = self.attention

        mlp = self.mlp

        experts = self.experts

        norms = self.norms

        lm_head = self.lm_head


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "embeddings": embeddings,
            "attention": attention,
            "mlp": mlp,
            "experts": experts,
            "norms": norms,
            "lm_head": lm_head,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        embeddings = d.pop("embeddings")

        attention = d.pop("attention")

        mlp = d.pop("mlp")

        experts = d.pop("experts")

        norms = d.pop("norms")

        lm_head = d.pop("lm_head")

        params = cls(
            embeddings=embeddings,
            attention=attention,
            mlp=mlp,
            experts=experts,
            norms=norms,
            lm_head=lm_head,
        )


        params.additional_properties = d
        return params

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
