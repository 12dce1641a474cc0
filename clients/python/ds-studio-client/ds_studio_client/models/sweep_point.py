from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.point_state import PointState
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.sweep_point_values import SweepPointValues
  from ..models.text import Text





T = TypeVar("T", bound="SweepPoint")



@_attrs_define
class SweepPoint:
    """ One point of a sweep.

        Attributes:
            index (int): Its place in the grid (0-based, the last key varying fastest).
            values (SweepPointValues): The grid's value of each key (dotted key → value).
            state (PointState): Where a point stands.
            job (int | None | Unset): Its job (absent for a pruned point).
            runner (None | str | Unset): The runner it was given to (absent: any).
            estimate_bytes (int | None | Unset): The memory model's peak per GPU, where the model is known.
            samples_per_sec (float | None | Unset): Median samples/s of its run (while running: so far).
            tokens_per_sec (float | None | Unset): Samples/s × sequence length, where the model is known.
            model_tflops (float | None | Unset): Model TFLOP/s per GPU (6 × parameters × tokens/s over the GPUs), where the
                model is
                known.
            peak_memory_mb (float | None | Unset): The peak memory its run measured, in MB (on a GPU DeepSpeed's max
                allocated; on a CPU
                the process's resident memory).
            estimate_error_pct (float | None | Unset): The measured peak against the estimate, in % (+: the run used more);
                only for a point
                measured on a GPU, where both count the same bytes.
            reason (None | Text | Unset):
            config_text (None | str | Unset): The config the point runs (the base version with the point's keys edited):
                given for
                the best point only, so a sweep stays small to fetch; any point's is its job's
                (`GET /api/v1/jobs/{job}`, `fit.config_text`). A point itself stores only its values.
     """

    index: int
    values: SweepPointValues
    state: PointState
    job: int | None | Unset = UNSET
    runner: None | str | Unset = UNSET
    estimate_bytes: int | None | Unset = UNSET
    samples_per_sec: float | None | Unset = UNSET
    tokens_per_sec: float | None | Unset = UNSET
    model_tflops: float | None | Unset = UNSET
    peak_memory_mb: float | None | Unset = UNSET
    estimate_error_pct: float | None | Unset = UNSET
    reason: None | Text | Unset = UNSET
    config_text: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sweep_point_values import SweepPointValues # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        index = self.index

        values = self.values.to_dict()

        state = self.state.value

        job: int | None | Unset
        if isinstance(self.job, Unset):
            job = UNSET
        else:
            job = self.job

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner

        estimate_bytes: int | None | Unset
        if isinstance(self.estimate_bytes, Unset):
            estimate_bytes = UNSET
        else:
            estimate_bytes = self.estimate_bytes

        samples_per_sec: float | None | Unset
        if isinstance(self.samples_per_sec, Unset):
            samples_per_sec = UNSET
        else:
            samples_per_sec = self.samples_per_sec

        tokens_per_sec: float | None | Unset
        if isinstance(self.tokens_per_sec, Unset):
            tokens_per_sec = UNSET
        else:
            tokens_per_sec = self.tokens_per_sec

        model_tflops: float | None | Unset
        if isinstance(self.model_tflops, Unset):
            model_tflops = UNSET
        else:
            model_tflops = self.model_tflops

        peak_memory_mb: float | None | Unset
        if isinstance(self.peak_memory_mb, Unset):
            peak_memory_mb = UNSET
        else:
            peak_memory_mb = self.peak_memory_mb

        estimate_error_pct: float | None | Unset
        if isinstance(self.estimate_error_pct, Unset):
            estimate_error_pct = UNSET
        else:
            estimate_error_pct = self.estimate_error_pct

        reason: dict[str, Any] | None | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, Text):
            reason = self.reason.to_dict()
        else:
            reason = self.reason

        config_text: None | str | Unset
        if isinstance(self.config_text, Unset):
            config_text = UNSET
        else:
            config_text = self.config_text


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "index": index,
            "values": values,
            "state": state,
        })
        if job is not UNSET:
            field_dict["job"] = job
        if runner is not UNSET:
            field_dict["runner"] = runner
        if estimate_bytes is not UNSET:
            field_dict["estimate_bytes"] = estimate_bytes
        if samples_per_sec is not UNSET:
            field_dict["samples_per_sec"] = samples_per_sec
        if tokens_per_sec is not UNSET:
            field_dict["tokens_per_sec"] = tokens_per_sec
        if model_tflops is not UNSET:
            field_dict["model_tflops"] = model_tflops
        if peak_memory_mb is not UNSET:
            field_dict["peak_memory_mb"] = peak_memory_mb
        if estimate_error_pct is not UNSET:
            field_dict["estimate_error_pct"] = estimate_error_pct
        if reason is not UNSET:
            field_dict["reason"] = reason
        if config_text is not UNSET:
            field_dict["config_text"] = config_text

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep_point_values import SweepPointValues # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        d = dict(src_dict)
        index = d.pop("index")

        values = SweepPointValues.from_dict(d.pop("values"))




        state = PointState(d.pop("state"))




        def _parse_job(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        job = _parse_job(d.pop("job", UNSET))


        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        def _parse_estimate_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        estimate_bytes = _parse_estimate_bytes(d.pop("estimate_bytes", UNSET))


        def _parse_samples_per_sec(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        samples_per_sec = _parse_samples_per_sec(d.pop("samples_per_sec", UNSET))


        def _parse_tokens_per_sec(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        tokens_per_sec = _parse_tokens_per_sec(d.pop("tokens_per_sec", UNSET))


        def _parse_model_tflops(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        model_tflops = _parse_model_tflops(d.pop("model_tflops", UNSET))


        def _parse_peak_memory_mb(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        peak_memory_mb = _parse_peak_memory_mb(d.pop("peak_memory_mb", UNSET))


        def _parse_estimate_error_pct(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        estimate_error_pct = _parse_estimate_error_pct(d.pop("estimate_error_pct", UNSET))


        def _parse_reason(data: object) -> None | Text | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = Text.from_dict(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Text | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_config_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        config_text = _parse_config_text(d.pop("config_text", UNSET))


        sweep_point = cls(
            index=index,
            values=values,
            state=state,
            job=job,
            runner=runner,
            estimate_bytes=estimate_bytes,
            samples_per_sec=samples_per_sec,
            tokens_per_sec=tokens_per_sec,
            model_tflops=model_tflops,
            peak_memory_mb=peak_memory_mb,
            estimate_error_pct=estimate_error_pct,
            reason=reason,
            config_text=config_text,
        )


        sweep_point.additional_properties = d
        return sweep_point

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
