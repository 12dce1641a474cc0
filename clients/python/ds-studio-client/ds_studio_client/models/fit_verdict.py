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
  from ..models.does_not_fit import DoesNotFit





T = TypeVar("T", bound="FitVerdict")



@_attrs_define
class FitVerdict:
    """ Whether the estimate fits one target (a GPU of the asked size, or a runner), and if not,
    what would.

        Attributes:
            fits (bool):
            capacity (Capacity): The memory one rank of a job may use on a runner.
            need_bytes (int): What one rank needs of `capacity.bytes_per_rank`.
            runner (None | str | Unset): The runner (absent for `gpu_memory_bytes`).
            does_not_fit (DoesNotFit | None | Unset):
     """

    fits: bool
    capacity: Capacity
    need_bytes: int
    runner: None | str | Unset = UNSET
    does_not_fit: DoesNotFit | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.capacity import Capacity # noqa: PLC0415
        from ..models.does_not_fit import DoesNotFit # noqa: PLC0415
        fits = self.fits

        capacity = self.capacity.to_dict()

        need_bytes = self.need_bytes

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner

        does_not_fit: dict[str, Any] | None | Unset
        if isinstance(self.does_not_fit, Unset):
            does_not_fit = UNSET
        elif isinstance(self.does_not_fit, DoesNotFit):
            does_not_fit = self.does_not_fit.to_dict()
        else:
            does_not_fit = self.does_not_fit


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "fits": fits,
            "capacity": capacity,
            "need_bytes": need_bytes,
        })
        if runner is not UNSET:
            field_dict["runner"] = runner
        if does_not_fit is not UNSET:
            field_dict["does_not_fit"] = does_not_fit

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.capacity import Capacity # noqa: PLC0415
        from ..models.does_not_fit import DoesNotFit # noqa: PLC0415
        d = dict(src_dict)
        fits = d.pop("fits")

        capacity = Capacity.from_dict(d.pop("capacity"))




        need_bytes = d.pop("need_bytes")

        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        def _parse_does_not_fit(data: object) -> DoesNotFit | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                does_not_fit_type_0 = DoesNotFit.from_dict(data)



                return does_not_fit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DoesNotFit | None | Unset, data)

        does_not_fit = _parse_does_not_fit(d.pop("does_not_fit", UNSET))


        fit_verdict = cls(
            fits=fits,
            capacity=capacity,
            need_bytes=need_bytes,
            runner=runner,
            does_not_fit=does_not_fit,
        )


        fit_verdict.additional_properties = d
        return fit_verdict

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
