from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="MetricSeries")



@_attrs_define
class MetricSeries:
    """ `GET /api/v1/jobs/{id}/metrics`: points per series, downsampled when asked.

        Attributes:
            name (str):
            total (int): Points stored for this series.
            points (list[list[float]]): `[step, value]` pairs, by step; at most `max_points` when downsampled (bucket
                means).
     """

    name: str
    total: int
    points: list[list[float]]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        total = self.total

        points = []
        for points_item_data in self.points:
            points_item = points_item_data


            points.append(points_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "total": total,
            "points": points,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        total = d.pop("total")

        points = []
        _points = d.pop("points")
        for points_item_data in (_points):
            points_item = cast(list[float], points_item_data)

            points.append(points_item)


        metric_series = cls(
            name=name,
            total=total,
            points=points,
        )


        metric_series.additional_properties = d
        return metric_series

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
