from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.catalog_model_config import CatalogModelConfig





T = TypeVar("T", bound="CatalogModel")



@_attrs_define
class CatalogModel:
    """ One model of the catalog.

        Attributes:
            name (str): The name to pick it by: `llama-3.1-8b`, `qwen2.5-7b`.
            title (str): As people write it: "Llama 3.1 8B".
            hub (str): The Hugging Face repository its config.json comes from.
            params (int): Parameters, as transformers counts the model built from `config`.
            config (CatalogModelConfig): The config.json fields the architecture is read from.
     """

    name: str
    title: str
    hub: str
    params: int
    config: CatalogModelConfig
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_model_config import CatalogModelConfig # noqa: PLC0415
        name = self.name

        title = self.title

        hub = self.hub

        params = self.params

        config = self.config.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "title": title,
            "hub": hub,
            "params": params,
            "config": config,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_model_config import CatalogModelConfig # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        title = d.pop("title")

        hub = d.pop("hub")

        params = d.pop("params")

        config = CatalogModelConfig.from_dict(d.pop("config"))




        catalog_model = cls(
            name=name,
            title=title,
            hub=hub,
            params=params,
            config=config,
        )


        catalog_model.additional_properties = d
        return catalog_model

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
