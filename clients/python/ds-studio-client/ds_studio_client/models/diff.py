from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.change import Change
  from ..models.diagnostic import Diagnostic
  from ..models.version_ref import VersionRef





T = TypeVar("T", bound="Diff")



@_attrs_define
class Diff:
    """ 
        Attributes:
            from_ (VersionRef):
            to (VersionRef):
            changes (list[Change]):
            text_diff (str): Unified diff of the canonical texts.
            diagnostics_introduced (list[Diagnostic]):
            diagnostics_resolved (list[Diagnostic]):
     """

    from_: VersionRef
    to: VersionRef
    changes: list[Change]
    text_diff: str
    diagnostics_introduced: list[Diagnostic]
    diagnostics_resolved: list[Diagnostic]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change import Change # noqa: PLC0415
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        from ..models.version_ref import VersionRef # noqa: PLC0415
        from_ = self.from_.to_dict()

        to = self.to.to_dict()

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        text_diff = self.text_diff

        diagnostics_introduced = []
        for diagnostics_introduced_item_data in self.diagnostics_introduced:
            diagnostics_introduced_item = diagnostics_introduced_item_data.to_dict()
            diagnostics_introduced.append(diagnostics_introduced_item)



        diagnostics_resolved = []
        for diagnostics_resolved_item_data in self.diagnostics_resolved:
            diagnostics_resolved_item = diagnostics_resolved_item_data.to_dict()
            diagnostics_resolved.append(diagnostics_resolved_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "from": from_,
            "to": to,
            "changes": changes,
            "text_diff": text_diff,
            "diagnostics_introduced": diagnostics_introduced,
            "diagnostics_resolved": diagnostics_resolved,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change import Change # noqa: PLC0415
        from ..models.diagnostic import Diagnostic # noqa: PLC0415
        from ..models.version_ref import VersionRef # noqa: PLC0415
        d = dict(src_dict)
        from_ = VersionRef.from_dict(d.pop("from"))




        to = VersionRef.from_dict(d.pop("to"))




        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = Change.from_dict(changes_item_data)



            changes.append(changes_item)


        text_diff = d.pop("text_diff")

        diagnostics_introduced = []
        _diagnostics_introduced = d.pop("diagnostics_introduced")
        for diagnostics_introduced_item_data in (_diagnostics_introduced):
            diagnostics_introduced_item = Diagnostic.from_dict(diagnostics_introduced_item_data)



            diagnostics_introduced.append(diagnostics_introduced_item)


        diagnostics_resolved = []
        _diagnostics_resolved = d.pop("diagnostics_resolved")
        for diagnostics_resolved_item_data in (_diagnostics_resolved):
            diagnostics_resolved_item = Diagnostic.from_dict(diagnostics_resolved_item_data)



            diagnostics_resolved.append(diagnostics_resolved_item)


        diff = cls(
            from_=from_,
            to=to,
            changes=changes,
            text_diff=text_diff,
            diagnostics_introduced=diagnostics_introduced,
            diagnostics_resolved=diagnostics_resolved,
        )


        diff.additional_properties = d
        return diff

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
