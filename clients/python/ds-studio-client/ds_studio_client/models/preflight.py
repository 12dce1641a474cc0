from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Preflight")



@_attrs_define
class Preflight:
    """ What the runner's own DeepSpeed said about the config before launching.

        Attributes:
            ok (bool): DeepSpeed's parser accepted the config.
            message (None | str | Unset): DeepSpeed's own message when it rejected the config (or could not be imported).
            python (None | str | Unset):
            torch_version (None | str | Unset):
            deepspeed_version (None | str | Unset):
            transformers_version (None | str | Unset): The Hugging Face releases the runner's Python imports (the HF
                launchers need them).
            accelerate_version (None | str | Unset):
            accelerator (None | str | Unset):
            device_count (int | None | Unset):
            report (None | str | Unset): A one-line `ds_report` summary: versions, accelerator, devices.
     """

    ok: bool
    message: None | str | Unset = UNSET
    python: None | str | Unset = UNSET
    torch_version: None | str | Unset = UNSET
    deepspeed_version: None | str | Unset = UNSET
    transformers_version: None | str | Unset = UNSET
    accelerate_version: None | str | Unset = UNSET
    accelerator: None | str | Unset = UNSET
    device_count: int | None | Unset = UNSET
    report: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        python: None | str | Unset
        if isinstance(self.python, Unset):
            python = UNSET
        else:
            python = self.python

        torch_version: None | str | Unset
        if isinstance(self.torch_version, Unset):
            torch_version = UNSET
        else:
            torch_version = self.torch_version

        deepspeed_version: None | str | Unset
        if isinstance(self.deepspeed_version, Unset):
            deepspeed_version = UNSET
        else:
            deepspeed_version = self.deepspeed_version

        transformers_version: None | str | Unset
        if isinstance(self.transformers_version, Unset):
            transformers_version = UNSET
        else:
            transformers_version = self.transformers_version

        accelerate_version: None | str | Unset
        if isinstance(self.accelerate_version, Unset):
            accelerate_version = UNSET
        else:
            accelerate_version = self.accelerate_version

        accelerator: None | str | Unset
        if isinstance(self.accelerator, Unset):
            accelerator = UNSET
        else:
            accelerator = self.accelerator

        device_count: int | None | Unset
        if isinstance(self.device_count, Unset):
            device_count = UNSET
        else:
            device_count = self.device_count

        report: None | str | Unset
        if isinstance(self.report, Unset):
            report = UNSET
        else:
            report = self.report


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ok": ok,
        })
        if message is not UNSET:
            field_dict["message"] = message
        if python is not UNSET:
            field_dict["python"] = python
        if torch_version is not UNSET:
            field_dict["torch_version"] = torch_version
        if deepspeed_version is not UNSET:
            field_dict["deepspeed_version"] = deepspeed_version
        if transformers_version is not UNSET:
            field_dict["transformers_version"] = transformers_version
        if accelerate_version is not UNSET:
            field_dict["accelerate_version"] = accelerate_version
        if accelerator is not UNSET:
            field_dict["accelerator"] = accelerator
        if device_count is not UNSET:
            field_dict["device_count"] = device_count
        if report is not UNSET:
            field_dict["report"] = report

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ok = d.pop("ok")

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))


        def _parse_python(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        python = _parse_python(d.pop("python", UNSET))


        def _parse_torch_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        torch_version = _parse_torch_version(d.pop("torch_version", UNSET))


        def _parse_deepspeed_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deepspeed_version = _parse_deepspeed_version(d.pop("deepspeed_version", UNSET))


        def _parse_transformers_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transformers_version = _parse_transformers_version(d.pop("transformers_version", UNSET))


        def _parse_accelerate_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        accelerate_version = _parse_accelerate_version(d.pop("accelerate_version", UNSET))


        def _parse_accelerator(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        accelerator = _parse_accelerator(d.pop("accelerator", UNSET))


        def _parse_device_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        device_count = _parse_device_count(d.pop("device_count", UNSET))


        def _parse_report(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        report = _parse_report(d.pop("report", UNSET))


        preflight = cls(
            ok=ok,
            message=message,
            python=python,
            torch_version=torch_version,
            deepspeed_version=deepspeed_version,
            transformers_version=transformers_version,
            accelerate_version=accelerate_version,
            accelerator=accelerator,
            device_count=device_count,
            report=report,
        )


        preflight.additional_properties = d
        return preflight

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
