from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="EventAck")



@_attrs_define
class EventAck:
    """ The answer to an event batch.

        Attributes:
            stored (int): Events stored now.
            duplicates (int): Events already stored before (a resent batch).
            last_seq (int): Highest sequence number stored for the job.
     """

    stored: int
    duplicates: int
    last_seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        stored = self.stored

        duplicates = self.duplicates

        last_seq = self.last_seq


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "stored": stored,
            "duplicates": duplicates,
            "last_seq": last_seq,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        stored = d.pop("stored")

        duplicates = d.pop("duplicates")

        last_seq = d.pop("last_seq")

        event_ack = cls(
            stored=stored,
            duplicates=duplicates,
            last_seq=last_seq,
        )


        event_ack.additional_properties = d
        return event_ack

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
