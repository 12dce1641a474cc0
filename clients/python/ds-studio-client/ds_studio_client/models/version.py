from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.context import Context
  from ..models.diagnostic import Diagnostic





T = TypeVar("T", bound="Version")



@_attrs_define
class Version:
    """ One immutable version: the text exactly as saved, its parsed value and its diagnostics.

        Attributes:
            template_id (int):
            template_name (str):
            version (int):
            config_text (str):
            config (Any): The config as JSON (`null` when the text does not parse; any JSON value otherwise,
                an object for every config DeepSpeed could read).
            context (Context): The validation context.
            diagnostics (list[Diagnostic]):
            verdict (Verdict): DeepSpeed's verdict on a config, as we predict it.
            author (str):
            message (str):
            created_at (str):
     """

    template_id: int
    template_name: str
    version: int
    config_text: str
    config: Any
    context: Context
    diagnostics: list[Diagnostic]
    verdict: Verdict
    author: str
    message: str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context import Context # noqa: PLC0415
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        template_id = self.template_id

        template_name = self.template_name

        version = self.version

        config_text = self.config_text

        config = self.config

        context = self.context.to_dict()

        diagnostics = []
        for diagnostics_item_data in self.diagnostics:
            diagnostics_item = diagnostics_item_data.to_dict()
            diagnostics.append(diagnostics_item)



        verdict = self.verdict.value

        author = self.author

        message = self.message

        created_at = self.created_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "template_id": template_id,
            "template_name": template_name,
            "version": version,
            "config_text": config_text,
            "config": config,
            "context": context,
            "diagnostics": diagnostics,
            "verdict": verdict,
            "author": author,
            "message": message,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context import Context # noqa: PLC0415
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        d = dict(src_dict)
        template_id = d.pop("template_id")

        template_name = d.pop("template_name")

        version = d.pop("version")

        config_text = d.pop("config_text")

        config = d.pop("config")

        context = Context.from_dict(d.pop("context"))




        diagnostics = []
        _diagnostics = d.pop("diagnostics")
        for diagnostics_item_data in (_diagnostics):
            diagnostics_item = Diagnostic.from_dict(diagnostics_item_data)



            diagnostics.append(diagnostics_item)


        verdict = Verdict(d.pop("verdict"))




        author = d.pop("author")

        message = d.pop("message")

        created_at = d.pop("created_at")

        version = cls(
            template_id=template_id,
            template_name=template_name,
            version=version,
            config_text=config_text,
            config=config,
            context=context,
            diagnostics=diagnostics,
            verdict=verdict,
            author=author,
            message=message,
            created_at=created_at,
        )


        version.additional_properties = d
        return version

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
