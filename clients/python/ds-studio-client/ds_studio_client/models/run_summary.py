from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunSummary")



@_attrs_define
class RunSummary:
    """ How a run went, from its metric series (name → `(step, value)` points in order): the last
    and the lowest training loss, the median samples/s, and the measured peak memory in MB (the
    workload's own report, else DeepSpeed's max allocated). The job page, compare and
    `jobs watch` all say it from here.

        Attributes:
            final_loss (float | None | Unset):
            best_loss (float | None | Unset):
            median_samples_per_sec (float | None | Unset):
            peak_memory_mb (float | None | Unset):
     """

    final_loss: float | None | Unset = UNSET
    best_loss: float | None | Unset = UNSET
    median_samples_per_sec: float | None | Unset = UNSET
    peak_memory_mb: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        final_loss: float | None | Unset
        if isinstance(self.final_loss, Unset):
            final_loss = UNSET
        else:
            final_loss = self.final_loss

        best_loss: float | None | Unset
        if isinstance(self.best_loss, Unset):
            best_loss = UNSET
        else:
            best_loss = self.best_loss

        median_samples_per_sec: float | None | Unset
        if isinstance(self.median_samples_per_sec, Unset):
            median_samples_per_sec = UNSET
        else:
            median_samples_per_sec = self.median_samples_per_sec

        peak_memory_mb: float | None | Unset
        if isinstance(self.peak_memory_mb, Unset):
            peak_memory_mb = UNSET
        else:
            peak_memory_mb = self.peak_memory_mb


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if final_loss is not UNSET:
            field_dict["final_loss"] = final_loss
        if best_loss is not UNSET:
            field_dict["best_loss"] = best_loss
        if median_samples_per_sec is not UNSET:
            field_dict["median_samples_per_sec"] = median_samples_per_sec
        if peak_memory_mb is not UNSET:
            field_dict["peak_memory_mb"] = peak_memory_mb

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_final_loss(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        final_loss = _parse_final_loss(d.pop("final_loss", UNSET))


        def _parse_best_loss(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_loss = _parse_best_loss(d.pop("best_loss", UNSET))


        def _parse_median_samples_per_sec(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        median_samples_per_sec = _parse_median_samples_per_sec(d.pop("median_samples_per_sec", UNSET))


        def _parse_peak_memory_mb(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        peak_memory_mb = _parse_peak_memory_mb(d.pop("peak_memory_mb", UNSET))


        run_summary = cls(
            final_loss=final_loss,
            best_loss=best_loss,
            median_samples_per_sec=median_samples_per_sec,
            peak_memory_mb=peak_memory_mb,
        )


        run_summary.additional_properties = d
        return run_summary

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
