from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.severity import Severity
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.diagnostic_fix_type_0_item import DiagnosticFixType0Item
  from ..models.text import Text
  from ..models.text_edit import TextEdit





T = TypeVar("T", bound="Diagnostic")



@_attrs_define
class Diagnostic:
    """ One finding: severity, stable code, JSON pointer, bilingual message, optional fix.

        Attributes:
            severity (Severity):
            code (str): Stable, kebab-case identifier (each documented in `vocab::codes`, the book's codes page).
            path (str): JSON pointer to the offending value (or to the nearest parent for a missing key).
            message (Text): One message in both languages.
            fix (list[DiagnosticFixType0Item] | None | Unset): A JSON patch (RFC 6902) that fixes the problem, when there is
                an obvious one.
            text_fix (list[TextEdit] | None | Unset): A fix on the text itself, where no JSON patch can say it (drop a
                comment or a trailing
                comma, quote a key): edits by byte offset into the validated text, not overlapping,
                applied together.
            line (int | None | Unset):
            column (int | None | Unset):
     """

    severity: Severity
    code: str
    path: str
    message: Text
    fix: list[DiagnosticFixType0Item] | None | Unset = UNSET
    text_fix: list[TextEdit] | None | Unset = UNSET
    line: int | None | Unset = UNSET
    column: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diagnostic_fix_type_0_item import DiagnosticFixType0Item # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        from ..models.text_edit import TextEdit # noqa: PLC0415
        severity = self.severity.value

        code = self.code

        path = self.path

        message = self.message.to_dict()

        fix: list[dict[str, Any]] | None | Unset
        if isinstance(self.fix, Unset):
            fix = UNSET
        elif isinstance(self.fix, list):
            fix = []
            for fix_type_0_item_data in self.fix:
                fix_type_0_item = fix_type_0_item_data.to_dict()
                fix.append(fix_type_0_item)


        else:
            fix = self.fix

        text_fix: list[dict[str, Any]] | None | Unset
        if isinstance(self.text_fix, Unset):
            text_fix = UNSET
        elif isinstance(self.text_fix, list):
            text_fix = []
            for text_fix_type_0_item_data in self.text_fix:
                text_fix_type_0_item = text_fix_type_0_item_data.to_dict()
                text_fix.append(text_fix_type_0_item)


        else:
            text_fix = self.text_fix

        line: int | None | Unset
        if isinstance(self.line, Unset):
            line = UNSET
        else:
            line = self.line

        column: int | None | Unset
        if isinstance(self.column, Unset):
            column = UNSET
        else:
            column = self.column


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "severity": severity,
            "code": code,
            "path": path,
            "message": message,
        })
        if fix is not UNSET:
            field_dict["fix"] = fix
        if text_fix is not UNSET:
            field_dict["text_fix"] = text_fix
        if line is not UNSET:
            field_dict["line"] = line
        if column is not UNSET:
            field_dict["column"] = column

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagnostic_fix_type_0_item import DiagnosticFixType0Item # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        from ..models.text_edit import TextEdit # noqa: PLC0415
        d = dict(src_dict)
        severity = Severity(d.pop("severity"))




        code = d.pop("code")

        path = d.pop("path")

        message = Text.from_dict(d.pop("message"))




        def _parse_fix(data: object) -> list[DiagnosticFixType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                fix_type_0 = []
                _fix_type_0 = data
                for fix_type_0_item_data in (_fix_type_0):
                    fix_type_0_item = DiagnosticFixType0Item.from_dict(fix_type_0_item_data)



                    fix_type_0.append(fix_type_0_item)

                return fix_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[DiagnosticFixType0Item] | None | Unset, data)

        fix = _parse_fix(d.pop("fix", UNSET))


        def _parse_text_fix(data: object) -> list[TextEdit] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                text_fix_type_0 = []
                _text_fix_type_0 = data
                for text_fix_type_0_item_data in (_text_fix_type_0):
                    text_fix_type_0_item = TextEdit.from_dict(text_fix_type_0_item_data)



                    text_fix_type_0.append(text_fix_type_0_item)

                return text_fix_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TextEdit] | None | Unset, data)

        text_fix = _parse_text_fix(d.pop("text_fix", UNSET))


        def _parse_line(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        line = _parse_line(d.pop("line", UNSET))


        def _parse_column(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        column = _parse_column(d.pop("column", UNSET))


        diagnostic = cls(
            severity=severity,
            code=code,
            path=path,
            message=message,
            fix=fix,
            text_fix=text_fix,
            line=line,
            column=column,
        )


        diagnostic.additional_properties = d
        return diagnostic

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
