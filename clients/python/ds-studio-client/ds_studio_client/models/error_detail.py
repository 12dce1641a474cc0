from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.config_rejected_details import ConfigRejectedDetails
  from ..models.does_not_fit import DoesNotFit
  from ..models.version_conflict_details import VersionConflictDetails





T = TypeVar("T", bound="ErrorDetail")



@_attrs_define
class ErrorDetail:
    """ 
        Attributes:
            code (str): Stable machine-readable code (`not_found`, `conflict`, `version_conflict`, ...).
            message (str): Human-readable explanation naming the problem.
            details (ConfigRejectedDetails | DoesNotFit | None | Unset | VersionConflictDetails):
     """

    code: str
    message: str
    details: ConfigRejectedDetails | DoesNotFit | None | Unset | VersionConflictDetails = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.config_rejected_details import ConfigRejectedDetails # noqa: PLC0415
        from ..models.does_not_fit import DoesNotFit # noqa: PLC0415
        from ..models.version_conflict_details import VersionConflictDetails # noqa: PLC0415
        code = self.code

        message = self.message

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, VersionConflictDetails):
            details = self.details.to_dict()
        elif isinstance(self.details, ConfigRejectedDetails):
            details = self.details.to_dict()
        elif isinstance(self.details, DoesNotFit):
            details = self.details.to_dict()
        else:
            details = self.details


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
        })
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.config_rejected_details import ConfigRejectedDetails # noqa: PLC0415
        from ..models.does_not_fit import DoesNotFit # noqa: PLC0415
        from ..models.version_conflict_details import VersionConflictDetails # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        def _parse_details(data: object) -> ConfigRejectedDetails | DoesNotFit | None | Unset | VersionConflictDetails:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_error_details_type_0 = VersionConflictDetails.from_dict(data)



                return componentsschemas_error_details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_error_details_type_1 = ConfigRejectedDetails.from_dict(data)



                return componentsschemas_error_details_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_error_details_type_2 = DoesNotFit.from_dict(data)



                return componentsschemas_error_details_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConfigRejectedDetails | DoesNotFit | None | Unset | VersionConflictDetails, data)

        details = _parse_details(d.pop("details", UNSET))


        error_detail = cls(
            code=code,
            message=message,
            details=details,
        )


        error_detail.additional_properties = d
        return error_detail

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
