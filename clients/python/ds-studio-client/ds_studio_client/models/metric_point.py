from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="MetricPoint")



@_attrs_define
class MetricPoint:
    """ One metric point. `step` is DeepSpeed's x axis: global samples for the CSV monitor series,
    the optimizer step for values parsed from its log lines.

        Attributes:
            seq (int):
            name (str):
            step (int):
            value (float):
            ts (str):
     """

    seq: int
    name: str
    step: int
    value: float
    ts: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        name = self.name

        step = self.step

        value = self.value

        ts = self.ts


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "name": name,
            "step": step,
            "value": value,
            "ts": ts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        name = d.pop("name")

        step = d.pop("step")

        value = d.pop("value")

        ts = d.pop("ts")

        metric_point = cls(
            seq=seq,
            name=name,
            step=step,
            value=value,
            ts=ts,
        )


        metric_point.additional_properties = d
        return metric_point

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
