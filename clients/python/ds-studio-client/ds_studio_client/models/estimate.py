from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.phase import Phase
from typing import cast

if TYPE_CHECKING:
  from ..models.piece import Piece





T = TypeVar("T", bound="Estimate")



@_attrs_define
class Estimate:
    """ The predicted peak of one GPU and of one node's CPU memory, with their parts.

        Attributes:
            gpu_peak_bytes (int): Peak bytes per GPU (`torch.cuda.max_memory_allocated`).
            phase (Phase): When in a training step the peak happens.
            gpu_parts (list[Piece]): What the GPU holds at its peak; the bytes add up to `gpu_peak_bytes`.
            cpu_peak_bytes (int): Peak bytes of CPU memory per node (the node's ranks together).
            cpu_parts (list[Piece]):
            measured_basis (bool): Whether configs like this one were measured on a GPU (stage, offload and precision of a
                measured row on one GPU); `false`: the terms are DeepSpeed's partitioning of measured ones.
     """

    gpu_peak_bytes: int
    phase: Phase
    gpu_parts: list[Piece]
    cpu_peak_bytes: int
    cpu_parts: list[Piece]
    measured_basis: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.piece import Piece # noqa: PLC0415
        gpu_peak_bytes = self.gpu_peak_bytes

        phase = self.phase.value

        gpu_parts = []
        for gpu_parts_item_data in self.gpu_parts:
            gpu_parts_item = gpu_parts_item_data.to_dict()
            gpu_parts.append(gpu_parts_item)



        cpu_peak_bytes = self.cpu_peak_bytes

        cpu_parts = []
        for cpu_parts_item_data in self.cpu_parts:
            cpu_parts_item = cpu_parts_item_data.to_dict()
            cpu_parts.append(cpu_parts_item)



        measured_basis = self.measured_basis


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "gpu_peak_bytes": gpu_peak_bytes,
            "phase": phase,
            "gpu_parts": gpu_parts,
            "cpu_peak_bytes": cpu_peak_bytes,
            "cpu_parts": cpu_parts,
            "measured_basis": measured_basis,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.piece import Piece # noqa: PLC0415
        d = dict(src_dict)
        gpu_peak_bytes = d.pop("gpu_peak_bytes")

        phase = Phase(d.pop("phase"))




        gpu_parts = []
        _gpu_parts = d.pop("gpu_parts")
        for gpu_parts_item_data in (_gpu_parts):
            gpu_parts_item = Piece.from_dict(gpu_parts_item_data)



            gpu_parts.append(gpu_parts_item)


        cpu_peak_bytes = d.pop("cpu_peak_bytes")

        cpu_parts = []
        _cpu_parts = d.pop("cpu_parts")
        for cpu_parts_item_data in (_cpu_parts):
            cpu_parts_item = Piece.from_dict(cpu_parts_item_data)



            cpu_parts.append(cpu_parts_item)


        measured_basis = d.pop("measured_basis")

        estimate = cls(
            gpu_peak_bytes=gpu_peak_bytes,
            phase=phase,
            gpu_parts=gpu_parts,
            cpu_peak_bytes=cpu_peak_bytes,
            cpu_parts=cpu_parts,
            measured_basis=measured_basis,
        )


        estimate.additional_properties = d
        return estimate

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
