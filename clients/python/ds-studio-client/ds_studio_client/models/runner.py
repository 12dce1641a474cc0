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





T = TypeVar("T", bound="Runner")



@_attrs_define
class Runner:
    """ A runner as the API shows it.

        Attributes:
            id (int):
            name (str):
            hostname (str):
            backend (str):
            gpus (list[int]):
            python (str):
            version (str):
            online (bool): Heartbeat seen in the last 30 s.
            last_seen (str):
            running (list[int]): Jobs it is running now.
            team_id (int | None | Unset): The team whose jobs it takes (from its runner token); none: every team's.
            deepspeed (str | Unset): The DeepSpeed release its Python imports (empty when unknown); jobs that may go to it
                are validated for that release.
            devices (None | RunnerDevices | Unset):
     """

    id: int
    name: str
    hostname: str
    backend: str
    gpus: list[int]
    python: str
    version: str
    online: bool
    last_seen: str
    running: list[int]
    team_id: int | None | Unset = UNSET
    deepspeed: str | Unset = UNSET
    devices: None | RunnerDevices | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.runner_devices import RunnerDevices # noqa: PLC0415
        id = self.id

        name = self.name

        hostname = self.hostname

        backend = self.backend

        gpus = self.gpus



        python = self.python

        version = self.version

        online = self.online

        last_seen = self.last_seen

        running = self.running



        team_id: int | None | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        deepspeed = self.deepspeed

        devices: dict[str, Any] | None | Unset
        if isinstance(self.devices, Unset):
            devices = UNSET
        elif isinstance(self.devices, RunnerDevices):
            devices = self.devices.to_dict()
        else:
            devices = self.devices


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "hostname": hostname,
            "backend": backend,
            "gpus": gpus,
            "python": python,
            "version": version,
            "online": online,
            "last_seen": last_seen,
            "running": running,
        })
        if team_id is not UNSET:
            field_dict["team_id"] = team_id
        if deepspeed is not UNSET:
            field_dict["deepspeed"] = deepspeed
        if devices is not UNSET:
            field_dict["devices"] = devices

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.runner_devices import RunnerDevices # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        hostname = d.pop("hostname")

        backend = d.pop("backend")

        gpus = cast(list[int], d.pop("gpus"))


        python = d.pop("python")

        version = d.pop("version")

        online = d.pop("online")

        last_seen = d.pop("last_seen")

        running = cast(list[int], d.pop("running"))


        def _parse_team_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))


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


        runner = cls(
            id=id,
            name=name,
            hostname=hostname,
            backend=backend,
            gpus=gpus,
            python=python,
            version=version,
            online=online,
            last_seen=last_seen,
            running=running,
            team_id=team_id,
            deepspeed=deepspeed,
            devices=devices,
        )


        runner.additional_properties = d
        return runner

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
