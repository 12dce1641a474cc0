from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.suggestion_kind import SuggestionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.fit_change import FitChange
  from ..models.text import Text
  from ..models.trainer_args import TrainerArgs





T = TypeVar("T", bound="Suggestion")



@_attrs_define
class Suggestion:
    """ A config that fits.

        Attributes:
            kind (SuggestionKind): Which way a suggestion makes the config fit.
            config_text (str): The config with the change made.
            changes (list[FitChange]):
            gpu_peak_bytes (int): Its predicted peak per GPU.
            summary (Text): One message in both languages.
            need_bytes (int | Unset): What one rank needs of the runner (the GPU peak; on a CPU runner with its share of the
                host side): the figure the summary gives.
            trainer (None | TrainerArgs | Unset):
     """

    kind: SuggestionKind
    config_text: str
    changes: list[FitChange]
    gpu_peak_bytes: int
    summary: Text
    need_bytes: int | Unset = UNSET
    trainer: None | TrainerArgs | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.fit_change import FitChange # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        kind = self.kind.value

        config_text = self.config_text

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        gpu_peak_bytes = self.gpu_peak_bytes

        summary = self.summary.to_dict()

        need_bytes = self.need_bytes

        trainer: dict[str, Any] | None | Unset
        if isinstance(self.trainer, Unset):
            trainer = UNSET
        elif isinstance(self.trainer, TrainerArgs):
            trainer = self.trainer.to_dict()
        else:
            trainer = self.trainer


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "kind": kind,
            "config_text": config_text,
            "changes": changes,
            "gpu_peak_bytes": gpu_peak_bytes,
            "summary": summary,
        })
        if need_bytes is not UNSET:
            field_dict["need_bytes"] = need_bytes
        if trainer is not UNSET:
            field_dict["trainer"] = trainer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fit_change import FitChange # noqa: PLC0415
        from ..models.text import Text # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        d = dict(src_dict)
        kind = SuggestionKind(d.pop("kind"))




        config_text = d.pop("config_text")

        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = FitChange.from_dict(changes_item_data)



            changes.append(changes_item)


        gpu_peak_bytes = d.pop("gpu_peak_bytes")

        summary = Text.from_dict(d.pop("summary"))




        need_bytes = d.pop("need_bytes", UNSET)

        def _parse_trainer(data: object) -> None | TrainerArgs | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trainer_type_0 = TrainerArgs.from_dict(data)



                return trainer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrainerArgs | Unset, data)

        trainer = _parse_trainer(d.pop("trainer", UNSET))


        suggestion = cls(
            kind=kind,
            config_text=config_text,
            changes=changes,
            gpu_peak_bytes=gpu_peak_bytes,
            summary=summary,
            need_bytes=need_bytes,
            trainer=trainer,
        )


        suggestion.additional_properties = d
        return suggestion

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
