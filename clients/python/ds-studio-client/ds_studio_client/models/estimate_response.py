from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.estimate import Estimate
  from ..models.estimated_model import EstimatedModel
  from ..models.fit_verdict import FitVerdict
  from ..models.setup import Setup





T = TypeVar("T", bound="EstimateResponse")



@_attrs_define
class EstimateResponse:
    """ `POST /api/v1/estimate`'s answer.

        Attributes:
            estimate (Estimate): The predicted peak of one GPU and of one node's CPU memory, with their parts.
            model (EstimatedModel): The model as the estimate read it.
            setup (Setup): How the config trains: everything about it that moves memory.
            runners (list[FitVerdict]): Against each online runner the caller may use that says what memory it has (none for
                an anonymous caller).
            gpu (FitVerdict | None | Unset):
     """

    estimate: Estimate
    model: EstimatedModel
    setup: Setup
    runners: list[FitVerdict]
    gpu: FitVerdict | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.estimate import Estimate # noqa: PLC0415
        from ..models.estimated_model import EstimatedModel # noqa: PLC0415
        from ..models.fit_verdict import FitVerdict # noqa: PLC0415
        from ..models.setup import Setup # noqa: PLC0415
        estimate = self.estimate.to_dict()

        model = self.model.to_dict()

        setup = self.setup.to_dict()

        runners = []
        for runners_item_data in self.runners:
            runners_item = runners_item_data.to_dict()
            runners.append(runners_item)



        gpu: dict[str, Any] | None | Unset
        if isinstance(self.gpu, Unset):
            gpu = UNSET
        elif isinstance(self.gpu, FitVerdict):
            gpu = self.gpu.to_dict()
        else:
            gpu = self.gpu


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "estimate": estimate,
            "model": model,
            "setup": setup,
            "runners": runners,
        })
        if gpu is not UNSET:
            field_dict["gpu"] = gpu

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate import Estimate # noqa: PLC0415
        from ..models.estimated_model import EstimatedModel # noqa: PLC0415
        from ..models.fit_verdict import FitVerdict # noqa: PLC0415
        from ..models.setup import Setup # noqa: PLC0415
        d = dict(src_dict)
        estimate = Estimate.from_dict(d.pop("estimate"))




        model = EstimatedModel.from_dict(d.pop("model"))




        setup = Setup.from_dict(d.pop("setup"))




        runners = []
        _runners = d.pop("runners")
        for runners_item_data in (_runners):
            runners_item = FitVerdict.from_dict(runners_item_data)



            runners.append(runners_item)


        def _parse_gpu(data: object) -> FitVerdict | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gpu_type_0 = FitVerdict.from_dict(data)



                return gpu_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FitVerdict | None | Unset, data)

        gpu = _parse_gpu(d.pop("gpu", UNSET))


        estimate_response = cls(
            estimate=estimate,
            model=model,
            setup=setup,
            runners=runners,
            gpu=gpu,
        )


        estimate_response.additional_properties = d
        return estimate_response

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
