from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.diagnostic import Diagnostic





T = TypeVar("T", bound="ValidateResponse")



@_attrs_define
class ValidateResponse:
    """ 
        Attributes:
            verdict (Verdict): DeepSpeed's verdict on a config, as we predict it.
            diagnostics (list[Diagnostic]):
     """

    verdict: Verdict
    diagnostics: list[Diagnostic]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        verdict = self.verdict.value

        diagnostics = []
        for diagnostics_item_data in self.diagnostics:
            diagnostics_item = diagnostics_item_data.to_dict()
            diagnostics.append(diagnostics_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "verdict": verdict,
            "diagnostics": diagnostics,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        d = dict(src_dict)
        verdict = Verdict(d.pop("verdict"))




        diagnostics = []
        _diagnostics = d.pop("diagnostics")
        for diagnostics_item_data in (_diagnostics):
            diagnostics_item = Diagnostic.from_dict(diagnostics_item_data)



            diagnostics.append(diagnostics_item)


        validate_response = cls(
            verdict=verdict,
            diagnostics=diagnostics,
        )


        validate_response.additional_properties = d
        return validate_response

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
