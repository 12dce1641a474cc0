from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.diagnostic import Diagnostic





T = TypeVar("T", bound="ConfigRejectedDetails")



@_attrs_define
class ConfigRejectedDetails:
    """ `details` of a `config_rejected` (422): the errors for the job's world size, and the
    release (and runner whose release it is) they were judged for.

        Attributes:
            diagnostics (list[Diagnostic]):
            deepspeed (str):
            runner (None | str | Unset):
     """

    diagnostics: list[Diagnostic]
    deepspeed: str
    runner: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        diagnostics = []
        for diagnostics_item_data in self.diagnostics:
            diagnostics_item = diagnostics_item_data.to_dict()
            diagnostics.append(diagnostics_item)



        deepspeed = self.deepspeed

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "diagnostics": diagnostics,
            "deepspeed": deepspeed,
        })
        if runner is not UNSET:
            field_dict["runner"] = runner

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        d = dict(src_dict)
        diagnostics = []
        _diagnostics = d.pop("diagnostics")
        for diagnostics_item_data in (_diagnostics):
            diagnostics_item = Diagnostic.from_dict(diagnostics_item_data)



            diagnostics.append(diagnostics_item)


        deepspeed = d.pop("deepspeed")

        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        config_rejected_details = cls(
            diagnostics=diagnostics,
            deepspeed=deepspeed,
            runner=runner,
        )


        config_rejected_details.additional_properties = d
        return config_rejected_details

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
