from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.runner_devices import RunnerDevices





T = TypeVar("T", bound="RunnerRegister")



@_attrs_define
class RunnerRegister:
    """ `POST /api/v1/runners`: a runner announces itself (again after a restart: same name, same id).

        Attributes:
            name (str):
            backend (str): `local` or `slurm`.
            hostname (str | Unset):
            gpus (list[int] | Unset): GPU indices it may use (empty: CPU only).
            python (str | Unset): The Python that runs DeepSpeed.
            version (str | Unset): ds-studio version of the runner.
            deepspeed (str | Unset): The DeepSpeed release its Python imports (`0.18.4`; empty when it could not tell).
            devices (None | RunnerDevices | Unset):
     """

    name: str
    backend: str
    hostname: str | Unset = UNSET
    gpus: list[int] | Unset = UNSET
    python: str | Unset = UNSET
    version: str | Unset = UNSET
    deepspeed: str | Unset = UNSET
    devices: None | RunnerDevices | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.runner_devices import RunnerDevices # noqa: PLC0415
        name = self.name

        backend = self.backend

        hostname = self.hostname

        gpus: list[int] | Unset = UNSET
        if not isinstance(self.gpus, Unset):
            gpus = self.gpus



        python = self.python

        version = self.version

        deepspeed = self.deepspeed

        devices: dict[str, Any] | None | Unset
        if isinstance(self.devices, Unset):
            devices = UNSET
        elif isinstance(self.devices, RunnerDevices):
            devices = self.devices.to_dict()
        else:
            devices = self.devices


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "backend": backend,
        })
        if hostname is not UNSET:
            field_dict["hostname"] = hostname
        if gpus is not UNSET:
            field_dict["gpus"] = gpus
        if python is not UNSET:
            field_dict["python"] = python
        if version is not UNSET:
            field_dict["version"] = version
        if deepspeed is not UNSET:
            field_dict["deepspeed"] = deepspeed
        if devices is not UNSET:
            field_dict["devices"] = devices

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.runner_devices import RunnerDevices # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        backend = d.pop("backend")

        hostname = d.pop("hostname", UNSET)

        gpus = cast(list[int], d.pop("gpus", UNSET))


        python = d.pop("python", UNSET)

        version = d.pop("version", UNSET)

        deepspeed = d.pop("deepspeed", UNSET)

        def _parse_devices(data: object) -> None | RunnerDevices | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                devices_type_0 = RunnerDevices.from_dict(data)



                return devices_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunnerDevices | Unset, data)

        devices = _parse_devices(d.pop("devices", UNSET))


        runner_register = cls(
            name=name,
            backend=backend,
            hostname=hostname,
            gpus=gpus,
            python=python,
            version=version,
            deepspeed=deepspeed,
            devices=devices,
        )

        return runner_register

