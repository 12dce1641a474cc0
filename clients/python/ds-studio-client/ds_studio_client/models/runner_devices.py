from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.gpu_device import GpuDevice





T = TypeVar("T", bound="RunnerDevices")



@_attrs_define
class RunnerDevices:
    """ What a runner runs jobs on: its GPUs (none on a CPU runner) and its host.

        Attributes:
            gpus (list[GpuDevice] | Unset):
            cpu_cores (int | Unset): CPU cores the runner may use.
            host_memory_bytes (int | Unset): Host memory in bytes.
            landlock_abi (int | None | Unset): The Landlock ABI the kernel confines this runner's job writes with; 0 when it
                cannot
                (jobs then run with the config and variable checks alone); none from runners before
                the confinement.
            job_writable (list[str] | Unset): Directories outside a job's own that its operator lets jobs write (`--job-
                writable`,
                e.g. a local NVMe for `nvme_path`): absolute config paths beneath them are accepted.
     """

    gpus: list[GpuDevice] | Unset = UNSET
    cpu_cores: int | Unset = UNSET
    host_memory_bytes: int | Unset = UNSET
    landlock_abi: int | None | Unset = UNSET
    job_writable: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.gpu_device import GpuDevice # noqa: PLC0415
        gpus: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.gpus, Unset):
            gpus = []
            for gpus_item_data in self.gpus:
                gpus_item = gpus_item_data.to_dict()
                gpus.append(gpus_item)



        cpu_cores = self.cpu_cores

        host_memory_bytes = self.host_memory_bytes

        landlock_abi: int | None | Unset
        if isinstance(self.landlock_abi, Unset):
            landlock_abi = UNSET
        else:
            landlock_abi = self.landlock_abi

        job_writable: list[str] | Unset = UNSET
        if not isinstance(self.job_writable, Unset):
            job_writable = self.job_writable




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if gpus is not UNSET:
            field_dict["gpus"] = gpus
        if cpu_cores is not UNSET:
            field_dict["cpu_cores"] = cpu_cores
        if host_memory_bytes is not UNSET:
            field_dict["host_memory_bytes"] = host_memory_bytes
        if landlock_abi is not UNSET:
            field_dict["landlock_abi"] = landlock_abi
        if job_writable is not UNSET:
            field_dict["job_writable"] = job_writable

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.gpu_device import GpuDevice # noqa: PLC0415
        d = dict(src_dict)
        _gpus = d.pop("gpus", UNSET)
        gpus: list[GpuDevice] | Unset = UNSET
        if _gpus is not UNSET:
            gpus = []
            for gpus_item_data in _gpus:
                gpus_item = GpuDevice.from_dict(gpus_item_data)



                gpus.append(gpus_item)


        cpu_cores = d.pop("cpu_cores", UNSET)

        host_memory_bytes = d.pop("host_memory_bytes", UNSET)

        def _parse_landlock_abi(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        landlock_abi = _parse_landlock_abi(d.pop("landlock_abi", UNSET))


        job_writable = cast(list[str], d.pop("job_writable", UNSET))


        runner_devices = cls(
            gpus=gpus,
            cpu_cores=cpu_cores,
            host_memory_bytes=host_memory_bytes,
            landlock_abi=landlock_abi,
            job_writable=job_writable,
        )


        runner_devices.additional_properties = d
        return runner_devices

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
