from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.runner_event_type_0_kind import RunnerEventType0Kind






T = TypeVar("T", bound="RunnerEventType0")



@_attrs_define
class RunnerEventType0:
    """ 
        Attributes:
            seq (int):
            ts (int): Milliseconds since the Unix epoch.
            name (str):
            step (int):
            value (float):
            kind (RunnerEventType0Kind):
     """

    seq: int
    ts: int
    name: str
    step: int
    value: float
    kind: RunnerEventType0Kind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        ts = self.ts

        name = self.name

        step = self.step

        value = self.value

        kind = self.kind.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "ts": ts,
            "name": name,
            "step": step,
            "value": value,
            "kind": kind,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        ts = d.pop("ts")

        name = d.pop("name")

        step = d.pop("step")

        value = d.pop("value")

        kind = RunnerEventType0Kind(d.pop("kind"))




        runner_event_type_0 = cls(
            seq=seq,
            ts=ts,
            name=name,
            step=step,
            value=value,
            kind=kind,
        )


        runner_event_type_0.additional_properties = d
        return runner_event_type_0

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
