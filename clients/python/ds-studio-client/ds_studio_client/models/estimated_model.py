from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.architecture import Architecture
  from ..models.model_spec import ModelSpec
  from ..models.params import Params





T = TypeVar("T", bound="EstimatedModel")



@_attrs_define
class EstimatedModel:
    """ The model as the estimate read it.

        Attributes:
            params (int): The model's own parameters (as transformers counts them).
            adapter_params (int): LoRA's adapters, added to the model (0 for full fine-tuning).
            trainable_params (int): The parameters the optimizer trains (all, or LoRA's adapters).
            active_params (int): Parameters a token goes through (fewer than `params` in a mixture of experts).
            parts (Params): An architecture's parameters, part by part.
            architecture (Architecture): A decoder-only transformer as config.json describes it.
            spec (ModelSpec): The model being trained: a decoder-only transformer.
            name (None | str | Unset): The catalog name, when the model is one.
     """

    params: int
    adapter_params: int
    trainable_params: int
    active_params: int
    parts: Params
    architecture: Architecture
    spec: ModelSpec
    name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.architecture import Architecture # noqa: PLC0415
        from ..models.model_spec import ModelSpec # noqa: PLC0415
        from ..models.params import Params # noqa: PLC0415
        params = self.params

        adapter_params = self.adapter_params

        trainable_params = self.trainable_params

        active_params = self.active_params

        parts = self.parts.to_dict()

        architecture = self.architecture.to_dict()

        spec = self.spec.to_dict()

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "params": params,
            "adapter_params": adapter_params,
            "trainable_params": trainable_params,
            "active_params": active_params,
            "parts": parts,
            "architecture": architecture,
            "spec": spec,
        })
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.architecture import Architecture # noqa: PLC0415
        from ..models.model_spec import ModelSpec # noqa: PLC0415
        from ..models.params import Params # noqa: PLC0415
        d = dict(src_dict)
        params = d.pop("params")

        adapter_params = d.pop("adapter_params")

        trainable_params = d.pop("trainable_params")

        active_params = d.pop("active_params")

        parts = Params.from_dict(d.pop("parts"))




        architecture = Architecture.from_dict(d.pop("architecture"))




        spec = ModelSpec.from_dict(d.pop("spec"))




        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        estimated_model = cls(
            params=params,
            adapter_params=adapter_params,
            trainable_params=trainable_params,
            active_params=active_params,
            parts=parts,
            architecture=architecture,
            spec=spec,
            name=name,
        )


        estimated_model.additional_properties = d
        return estimated_model

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
