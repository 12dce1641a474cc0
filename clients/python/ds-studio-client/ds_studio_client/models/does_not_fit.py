from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.capacity import Capacity
  from ..models.estimate import Estimate
  from ..models.suggestion import Suggestion





T = TypeVar("T", bound="DoesNotFit")



@_attrs_define
class DoesNotFit:
    """ A job that would run out of memory: its estimate beside the capacity, and configs that fit.

        Attributes:
            estimate (Estimate): The predicted peak of one GPU and of one node's CPU memory, with their parts.
            need_bytes (int): What one rank needs (the GPU peak; on a CPU runner with its share of the CPU side).
            capacity (Capacity): The memory one rank of a job may use on a runner.
            suggestions (list[Suggestion]): A smaller micro batch keeping the global batch, and the cheapest stage or
                offload, that
                fit (either may be missing).
            host_short (int | None | Unset): On a GPU runner whose host memory is too small: the CPU memory the node needs
                (the
                model each rank builds and what is offloaded), beside `capacity.host_bytes_per_node`.
            runner (None | str | Unset): The runner it was compared with (none: the largest of the runners it could go to).
     """

    estimate: Estimate
    need_bytes: int
    capacity: Capacity
    suggestions: list[Suggestion]
    host_short: int | None | Unset = UNSET
    runner: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.capacity import Capacity # noqa: PLC0415
        from ..models.estimate import Estimate # noqa: PLC0415
        from ..models.suggestion import Suggestion # noqa: PLC0415
        estimate = self.estimate.to_dict()

        need_bytes = self.need_bytes

        capacity = self.capacity.to_dict()

        suggestions = []
        for suggestions_item_data in self.suggestions:
            suggestions_item = suggestions_item_data.to_dict()
            suggestions.append(suggestions_item)



        host_short: int | None | Unset
        if isinstance(self.host_short, Unset):
            host_short = UNSET
        else:
            host_short = self.host_short

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "estimate": estimate,
            "need_bytes": need_bytes,
            "capacity": capacity,
            "suggestions": suggestions,
        })
        if host_short is not UNSET:
            field_dict["host_short"] = host_short
        if runner is not UNSET:
            field_dict["runner"] = runner

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.capacity import Capacity # noqa: PLC0415
        from ..models.estimate import Estimate # noqa: PLC0415
        from ..models.suggestion import Suggestion # noqa: PLC0415
        d = dict(src_dict)
        estimate = Estimate.from_dict(d.pop("estimate"))




        need_bytes = d.pop("need_bytes")

        capacity = Capacity.from_dict(d.pop("capacity"))




        suggestions = []
        _suggestions = d.pop("suggestions")
        for suggestions_item_data in (_suggestions):
            suggestions_item = Suggestion.from_dict(suggestions_item_data)



            suggestions.append(suggestions_item)


        def _parse_host_short(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        host_short = _parse_host_short(d.pop("host_short", UNSET))


        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        does_not_fit = cls(
            estimate=estimate,
            need_bytes=need_bytes,
            capacity=capacity,
            suggestions=suggestions,
            host_short=host_short,
            runner=runner,
        )


        does_not_fit.additional_properties = d
        return does_not_fit

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
