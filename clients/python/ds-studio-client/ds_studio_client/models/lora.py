from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Lora")



@_attrs_define
class Lora:
    """ Adapters of one rank on the named modules.

        Attributes:
            rank (int): The adapters' rank `r` (peft's default is 8).
            targets (list[str] | Unset): Module names (`q_proj`, `v_proj`, …), or `all-linear`. Empty: `all-linear`.
     """

    rank: int
    targets: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        targets: list[str] | Unset = UNSET
        if not isinstance(self.targets, Unset):
            targets = self.targets




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rank": rank,
        })
        if targets is not UNSET:
            field_dict["targets"] = targets

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        targets = cast(list[str], d.pop("targets", UNSET))


        lora = cls(
            rank=rank,
            targets=targets,
        )

        return lora

