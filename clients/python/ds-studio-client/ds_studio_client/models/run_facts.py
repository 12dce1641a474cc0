from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunFacts")



@_attrs_define
class RunFacts:
    """ What a run ran, read from the config as run (the fitted one where it was fitted) in the
    job's context.

        Attributes:
            launcher (str | Unset): Who launched DeepSpeed: `deepspeed`, `hf-trainer` or `accelerate` (the version's
                context's launcher).
            deepspeed (str | Unset): The DeepSpeed release: the claiming runner's, else the one it was validated for.
            zero_stage (int | None | Unset):
            precision (str | Unset): `bf16`, `fp16` or `fp32`.
            offload (str | Unset): `none`, or what is offloaded where (`optimizer:cpu`, `optimizer:cpu param:nvme`).
            micro_batch (int | None | Unset): Micro batch per GPU as DeepSpeed derives it.
     """

    launcher: str | Unset = UNSET
    deepspeed: str | Unset = UNSET
    zero_stage: int | None | Unset = UNSET
    precision: str | Unset = UNSET
    offload: str | Unset = UNSET
    micro_batch: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        launcher = self.launcher

        deepspeed = self.deepspeed

        zero_stage: int | None | Unset
        if isinstance(self.zero_stage, Unset):
            zero_stage = UNSET
        else:
            zero_stage = self.zero_stage

        precision = self.precision

        offload = self.offload

        micro_batch: int | None | Unset
        if isinstance(self.micro_batch, Unset):
            micro_batch = UNSET
        else:
            micro_batch = self.micro_batch


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if launcher is not UNSET:
            field_dict["launcher"] = launcher
        if deepspeed is not UNSET:
            field_dict["deepspeed"] = deepspeed
        if zero_stage is not UNSET:
            field_dict["zero_stage"] = zero_stage
        if precision is not UNSET:
            field_dict["precision"] = precision
        if offload is not UNSET:
            field_dict["offload"] = offload
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        launcher = d.pop("launcher", UNSET)

        deepspeed = d.pop("deepspeed", UNSET)

        def _parse_zero_stage(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        zero_stage = _parse_zero_stage(d.pop("zero_stage", UNSET))


        precision = d.pop("precision", UNSET)

        offload = d.pop("offload", UNSET)

        def _parse_micro_batch(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        micro_batch = _parse_micro_batch(d.pop("micro_batch", UNSET))


        run_facts = cls(
            launcher=launcher,
            deepspeed=deepspeed,
            zero_stage=zero_stage,
            precision=precision,
            offload=offload,
            micro_batch=micro_batch,
        )


        run_facts.additional_properties = d
        return run_facts

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
