from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.failure_reason import FailureReason
from ..models.job_state import JobState
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.filled_value import FilledValue
  from ..models.fitted import Fitted
  from ..models.job_env import JobEnv
  from ..models.preflight import Preflight
  from ..models.run_facts import RunFacts
  from ..models.run_summary import RunSummary
  from ..models.trainer_args import TrainerArgs
  from ..models.workload import Workload





T = TypeVar("T", bound="Job")



@_attrs_define
class Job:
    """ A job as the API shows it.

        Attributes:
            id (int):
            template_id (int):
            template_name (str):
            team_id (int):
            version (int): The pinned version.
            state (JobState): Where a job is in its life: `queued` → `running` → `succeeded` | `failed` | `cancelled` |
                `lost` (its runner went silent).
            workload (Workload): What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
                rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
                architecture built from config.json with random weights, trained by the built-in workload's
                scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
                [...]}`).
            gpus (int):
            nodes (int):
            max_steps (int):
            created_by (str):
            created_at (str):
            last_seq (int): Highest event sequence number stored.
            env (JobEnv | Unset):
            secret_env_names (list[str] | Unset): Names of its secret variables (their values are never shown).
            time_limit_s (int | None | Unset):
            stall_timeout_s (int | None | Unset): Stopped when no new metric comes for this long
                (`JobCreate::stall_timeout_s`).
            runner_requested (None | str | Unset): The runner asked for at submission.
            runner (None | str | Unset): The runner that claimed it.
            started_at (None | str | Unset):
            finished_at (None | str | Unset):
            exit_code (int | None | Unset):
            message (None | str | Unset): Why it failed, was cancelled or lost.
            reason (FailureReason | None | Unset):
            preflight (None | Preflight | Unset):
            cancel_requested (bool | Unset): A cancel was asked for and the runner has not confirmed it yet.
            fit (Fitted | None | Unset):
            name (str | Unset): Its name, note and tags (`PATCH /jobs/{id}`).
            note (str | Unset):
            tags (list[str] | Unset):
            facts (RunFacts | Unset): What a run ran, read from the config as run (the fitted one where it was fitted) in
                the
                job's context.
            summary (None | RunSummary | Unset):
            trainer (None | TrainerArgs | Unset):
            filled (list[FilledValue] | Unset): What the launcher fills in the config, predicted at submission (empty under
                the plain
                launcher).
            handed_config (Any | Unset): The dict the launcher handed to `deepspeed.initialize`, as the training process
                printed
                it (reported by the runner when the job ends).
     """

    id: int
    template_id: int
    template_name: str
    team_id: int
    version: int
    state: JobState
    workload: Workload
    gpus: int
    nodes: int
    max_steps: int
    created_by: str
    created_at: str
    last_seq: int
    env: JobEnv | Unset = UNSET
    secret_env_names: list[str] | Unset = UNSET
    time_limit_s: int | None | Unset = UNSET
    stall_timeout_s: int | None | Unset = UNSET
    runner_requested: None | str | Unset = UNSET
    runner: None | str | Unset = UNSET
    started_at: None | str | Unset = UNSET
    finished_at: None | str | Unset = UNSET
    exit_code: int | None | Unset = UNSET
    message: None | str | Unset = UNSET
    reason: FailureReason | None | Unset = UNSET
    preflight: None | Preflight | Unset = UNSET
    cancel_requested: bool | Unset = UNSET
    fit: Fitted | None | Unset = UNSET
    name: str | Unset = UNSET
    note: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    facts: RunFacts | Unset = UNSET
    summary: None | RunSummary | Unset = UNSET
    trainer: None | TrainerArgs | Unset = UNSET
    filled: list[FilledValue] | Unset = UNSET
    handed_config: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.filled_value import FilledValue # noqa: PLC0415
        from ..models.fitted import Fitted # noqa: PLC0415
        from ..models.job_env import JobEnv # noqa: PLC0415
        from ..models.preflight import Preflight # noqa: PLC0415
        from ..models.run_facts import RunFacts # noqa: PLC0415
        from ..models.run_summary import RunSummary # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        id = self.id

        template_id = self.template_id

        template_name = self.template_name

        team_id = self.team_id

        version = self.version

        state = self.state.value

        workload = self.workload.to_dict()

        gpus = self.gpus

        nodes = self.nodes

        max_steps = self.max_steps

        created_by = self.created_by

        created_at = self.created_at

        last_seq = self.last_seq

        env: dict[str, Any] | Unset = UNSET
        if not isinstance(self.env, Unset):
            env = self.env.to_dict()

        secret_env_names: list[str] | Unset = UNSET
        if not isinstance(self.secret_env_names, Unset):
            secret_env_names = self.secret_env_names



        time_limit_s: int | None | Unset
        if isinstance(self.time_limit_s, Unset):
            time_limit_s = UNSET
        else:
            time_limit_s = self.time_limit_s

        stall_timeout_s: int | None | Unset
        if isinstance(self.stall_timeout_s, Unset):
            stall_timeout_s = UNSET
        else:
            stall_timeout_s = self.stall_timeout_s

        runner_requested: None | str | Unset
        if isinstance(self.runner_requested, Unset):
            runner_requested = UNSET
        else:
            runner_requested = self.runner_requested

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = self.finished_at

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

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, FailureReason):
            reason = self.reason.value
        else:
            reason = self.reason

        preflight: dict[str, Any] | None | Unset
        if isinstance(self.preflight, Unset):
            preflight = UNSET
        elif isinstance(self.preflight, Preflight):
            preflight = self.preflight.to_dict()
        else:
            preflight = self.preflight

        cancel_requested = self.cancel_requested

        fit: dict[str, Any] | None | Unset
        if isinstance(self.fit, Unset):
            fit = UNSET
        elif isinstance(self.fit, Fitted):
            fit = self.fit.to_dict()
        else:
            fit = self.fit

        name = self.name

        note = self.note

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags



        facts: dict[str, Any] | Unset = UNSET
        if not isinstance(self.facts, Unset):
            facts = self.facts.to_dict()

        summary: dict[str, Any] | None | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, RunSummary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        trainer: dict[str, Any] | None | Unset
        if isinstance(self.trainer, Unset):
            trainer = UNSET
        elif isinstance(self.trainer, TrainerArgs):
            trainer = self.trainer.to_dict()
        else:
            trainer = self.trainer

        filled: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filled, Unset):
            filled = []
            for filled_item_data in self.filled:
                filled_item = filled_item_data.to_dict()
                filled.append(filled_item)



        handed_config = self.handed_config


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "template_id": template_id,
            "template_name": template_name,
            "team_id": team_id,
            "version": version,
            "state": state,
            "workload": workload,
            "gpus": gpus,
            "nodes": nodes,
            "max_steps": max_steps,
            "created_by": created_by,
            "created_at": created_at,
            "last_seq": last_seq,
        })
        if env is not UNSET:
            field_dict["env"] = env
        if secret_env_names is not UNSET:
            field_dict["secret_env_names"] = secret_env_names
        if time_limit_s is not UNSET:
            field_dict["time_limit_s"] = time_limit_s
        if stall_timeout_s is not UNSET:
            field_dict["stall_timeout_s"] = stall_timeout_s
        if runner_requested is not UNSET:
            field_dict["runner_requested"] = runner_requested
        if runner is not UNSET:
            field_dict["runner"] = runner
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if exit_code is not UNSET:
            field_dict["exit_code"] = exit_code
        if message is not UNSET:
            field_dict["message"] = message
        if reason is not UNSET:
            field_dict["reason"] = reason
        if preflight is not UNSET:
            field_dict["preflight"] = preflight
        if cancel_requested is not UNSET:
            field_dict["cancel_requested"] = cancel_requested
        if fit is not UNSET:
            field_dict["fit"] = fit
        if name is not UNSET:
            field_dict["name"] = name
        if note is not UNSET:
            field_dict["note"] = note
        if tags is not UNSET:
            field_dict["tags"] = tags
        if facts is not UNSET:
            field_dict["facts"] = facts
        if summary is not UNSET:
            field_dict["summary"] = summary
        if trainer is not UNSET:
            field_dict["trainer"] = trainer
        if filled is not UNSET:
            field_dict["filled"] = filled
        if handed_config is not UNSET:
            field_dict["handed_config"] = handed_config

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filled_value import FilledValue # noqa: PLC0415
        from ..models.fitted import Fitted # noqa: PLC0415
        from ..models.job_env import JobEnv # noqa: PLC0415
        from ..models.preflight import Preflight # noqa: PLC0415
        from ..models.run_facts import RunFacts # noqa: PLC0415
        from ..models.run_summary import RunSummary # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        template_id = d.pop("template_id")

        template_name = d.pop("template_name")

        team_id = d.pop("team_id")

        version = d.pop("version")

        state = JobState(d.pop("state"))




        workload = Workload.from_dict(d.pop("workload"))




        gpus = d.pop("gpus")

        nodes = d.pop("nodes")

        max_steps = d.pop("max_steps")

        created_by = d.pop("created_by")

        created_at = d.pop("created_at")

        last_seq = d.pop("last_seq")

        _env = d.pop("env", UNSET)
        env: JobEnv | Unset
        if isinstance(_env,  Unset):
            env = UNSET
        else:
            env = JobEnv.from_dict(_env)




        secret_env_names = cast(list[str], d.pop("secret_env_names", UNSET))


        def _parse_time_limit_s(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        time_limit_s = _parse_time_limit_s(d.pop("time_limit_s", UNSET))


        def _parse_stall_timeout_s(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        stall_timeout_s = _parse_stall_timeout_s(d.pop("stall_timeout_s", UNSET))


        def _parse_runner_requested(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner_requested = _parse_runner_requested(d.pop("runner_requested", UNSET))


        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        def _parse_started_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))


        def _parse_finished_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))


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


        def _parse_reason(data: object) -> FailureReason | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = FailureReason(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FailureReason | None | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


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


        cancel_requested = d.pop("cancel_requested", UNSET)

        def _parse_fit(data: object) -> Fitted | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fit_type_0 = Fitted.from_dict(data)



                return fit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Fitted | None | Unset, data)

        fit = _parse_fit(d.pop("fit", UNSET))


        name = d.pop("name", UNSET)

        note = d.pop("note", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))


        _facts = d.pop("facts", UNSET)
        facts: RunFacts | Unset
        if isinstance(_facts,  Unset):
            facts = UNSET
        else:
            facts = RunFacts.from_dict(_facts)




        def _parse_summary(data: object) -> None | RunSummary | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = RunSummary.from_dict(data)



                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunSummary | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))


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


        _filled = d.pop("filled", UNSET)
        filled: list[FilledValue] | Unset = UNSET
        if _filled is not UNSET:
            filled = []
            for filled_item_data in _filled:
                filled_item = FilledValue.from_dict(filled_item_data)



                filled.append(filled_item)


        handed_config = d.pop("handed_config", UNSET)

        job = cls(
            id=id,
            template_id=template_id,
            template_name=template_name,
            team_id=team_id,
            version=version,
            state=state,
            workload=workload,
            gpus=gpus,
            nodes=nodes,
            max_steps=max_steps,
            created_by=created_by,
            created_at=created_at,
            last_seq=last_seq,
            env=env,
            secret_env_names=secret_env_names,
            time_limit_s=time_limit_s,
            stall_timeout_s=stall_timeout_s,
            runner_requested=runner_requested,
            runner=runner,
            started_at=started_at,
            finished_at=finished_at,
            exit_code=exit_code,
            message=message,
            reason=reason,
            preflight=preflight,
            cancel_requested=cancel_requested,
            fit=fit,
            name=name,
            note=note,
            tags=tags,
            facts=facts,
            summary=summary,
            trainer=trainer,
            filled=filled,
            handed_config=handed_config,
        )


        job.additional_properties = d
        return job

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
