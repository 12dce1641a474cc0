from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.runner_event_type_0 import RunnerEventType0
  from ..models.runner_event_type_1 import RunnerEventType1





T = TypeVar("T", bound="EventBatch")



@_attrs_define
class EventBatch:
    """ `POST /api/v1/jobs/{id}/events` (runners): a batch of events.

        Attributes:
            events (list[RunnerEventType0 | RunnerEventType1]):
     """

    events: list[RunnerEventType0 | RunnerEventType1]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.runner_event_type_0 import RunnerEventType0 # noqa: PLC0415
        from ..models.runner_event_type_1 import RunnerEventType1 # noqa: PLC0415
        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, RunnerEventType0):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "events": events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.runner_event_type_0 import RunnerEventType0 # noqa: PLC0415
        from ..models.runner_event_type_1 import RunnerEventType1 # noqa: PLC0415
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            def _parse_events_item(data: object) -> RunnerEventType0 | RunnerEventType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_runner_event_type_0 = RunnerEventType0.from_dict(data)



                    return componentsschemas_runner_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_runner_event_type_1 = RunnerEventType1.from_dict(data)



                return componentsschemas_runner_event_type_1

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)


        event_batch = cls(
            events=events,
        )


        event_batch.additional_properties = d
        return event_batch

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
