from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.job_state import JobState
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.preflight import Preflight





T = TypeVar("T", bound="JobStateUpdate")



@_attrs_define
class JobStateUpdate:
    """ `POST /api/v1/jobs/{id}/state` (runners): the job started, or ended.

        Attributes:
            state (JobState): Where a job is in its life: `queued` → `running` → `succeeded` | `failed` | `cancelled` |
                `lost` (its runner went silent).
            exit_code (int | None | Unset):
            message (None | str | Unset):
            preflight (None | Preflight | Unset):
            handed_config (Any | Unset): The dict the launcher handed to `deepspeed.initialize` (the training process prints
                it).
     """

    state: JobState
    exit_code: int | None | Unset = UNSET
    message: None | str | Unset = UNSET
    preflight: None | Preflight | Unset = UNSET
    handed_config: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.preflight import Preflight # noqa: PLC0415
        state = self.state.value

        exit_code: int | None | Unset
        if isinstance(self.exit_code, Unset):
            exit_code = UNSET
        else:
            exit_code = self.exit_code

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        preflight: dict[str, Any] | None | Unset
        if isinstance(self.preflight, Unset):
            preflight = UNSET
        elif isinstance(self.preflight, Preflight):
            preflight = self.preflight.to_dict()
        else:
            preflight = self.preflight

        handed_config = self.handed_config


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "state": state,
        })
        if exit_code is not UNSET:
            field_dict["exit_code"] = exit_code
        if message is not UNSET:
            field_dict["message"] = message
        if preflight is not UNSET:
            field_dict["preflight"] = preflight
        if handed_config is not UNSET:
            field_dict["handed_config"] = handed_config

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preflight import Preflight # noqa: PLC0415
        d = dict(src_dict)
        state = JobState(d.pop("state"))




        def _parse_exit_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        exit_code = _parse_exit_code(d.pop("exit_code", UNSET))


        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))


        def _parse_preflight(data: object) -> None | Preflight | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                preflight_type_0 = Preflight.from_dict(data)



                return preflight_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Preflight | Unset, data)

        preflight = _parse_preflight(d.pop("preflight", UNSET))


        handed_config = d.pop("handed_config", UNSET)

        job_state_update = cls(
            state=state,
            exit_code=exit_code,
            message=message,
            preflight=preflight,
            handed_config=handed_config,
        )

        return job_state_update

