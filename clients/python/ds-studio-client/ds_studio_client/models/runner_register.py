from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






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
     """

    name: str
    backend: str
    hostname: str | Unset = UNSET
    gpus: list[int] | Unset = UNSET
    python: str | Unset = UNSET
    version: str | Unset = UNSET
    deepspeed: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        backend = self.backend

        hostname = self.hostname

        gpus: list[int] | Unset = UNSET
        if not isinstance(self.gpus, Unset):
            gpus = self.gpus



        python = self.python

        version = self.version

        deepspeed = self.deepspeed


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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        backend = d.pop("backend")

        hostname = d.pop("hostname", UNSET)

        gpus = cast(list[int], d.pop("gpus", UNSET))


        python = d.pop("python", UNSET)

        version = d.pop("version", UNSET)

        deepspeed = d.pop("deepspeed", UNSET)

        runner_register = cls(
            name=name,
            backend=backend,
            hostname=hostname,
            gpus=gpus,
            python=python,
            version=version,
            deepspeed=deepspeed,
        )

        return runner_register

