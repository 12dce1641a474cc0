from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.claimed_job_secret_env import ClaimedJobSecretEnv
  from ..models.context import Context
  from ..models.job import Job





T = TypeVar("T", bound="ClaimedJob")



@_attrs_define
class ClaimedJob:
    """ `POST /api/v1/runners/{id}/claim`: the job the runner now owns, with its pinned config.

        Attributes:
            job (Job): A job as the API shows it.
            config_text (str): The pinned version's text, byte for byte.
            context (Context): The validation context.
            secret_env (ClaimedJobSecretEnv | Unset): The job's secret variables, for its processes only.
     """

    job: Job
    config_text: str
    context: Context
    secret_env: ClaimedJobSecretEnv | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.claimed_job_secret_env import ClaimedJobSecretEnv # noqa: PLC0415
        from ..models.context import Context # noqa: PLC0415
        from ..models.job import Job # noqa: PLC0415
        job = self.job.to_dict()

        config_text = self.config_text

        context = self.context.to_dict()

        secret_env: dict[str, Any] | Unset = UNSET
        if not isinstance(self.secret_env, Unset):
            secret_env = self.secret_env.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "job": job,
            "config_text": config_text,
            "context": context,
        })
        if secret_env is not UNSET:
            field_dict["secret_env"] = secret_env

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.claimed_job_secret_env import ClaimedJobSecretEnv # noqa: PLC0415
        from ..models.context import Context # noqa: PLC0415
        from ..models.job import Job # noqa: PLC0415
        d = dict(src_dict)
        job = Job.from_dict(d.pop("job"))




        config_text = d.pop("config_text")

        context = Context.from_dict(d.pop("context"))




        _secret_env = d.pop("secret_env", UNSET)
        secret_env: ClaimedJobSecretEnv | Unset
        if isinstance(_secret_env,  Unset):
            secret_env = UNSET
        else:
            secret_env = ClaimedJobSecretEnv.from_dict(_secret_env)




        claimed_job = cls(
            job=job,
            config_text=config_text,
            context=context,
            secret_env=secret_env,
        )


        claimed_job.additional_properties = d
        return claimed_job

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
