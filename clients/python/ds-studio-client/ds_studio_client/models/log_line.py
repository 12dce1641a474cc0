from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LogLine")



@_attrs_define
class LogLine:
    """ One line of a job's output.

        Attributes:
            seq (int):
            stream (str): `stdout`, `stderr` or `runner` (what the runner itself reports).
            text (str):
            ts (str):
     """

    seq: int
    stream: str
    text: str
    ts: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        stream = self.stream

        text = self.text

        ts = self.ts


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "stream": stream,
            "text": text,
            "ts": ts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        stream = d.pop("stream")

        text = d.pop("text")

        ts = d.pop("ts")

        log_line = cls(
            seq=seq,
            stream=stream,
            text=text,
            ts=ts,
        )


        log_line.additional_properties = d
        return log_line

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
