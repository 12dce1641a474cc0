from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TrainerArgs")



@_attrs_define
class TrainerArgs:
    """ The TrainingArguments (and Accelerate script arguments) that reach the DeepSpeed config.

        Attributes:
            per_device_train_batch_size (int | None | Unset): `per_device_train_batch_size` (Accelerate: the train
                dataloader's batch size). Default 8.
            gradient_accumulation_steps (int | None | Unset): `gradient_accumulation_steps` (Accelerate:
                `Accelerator(gradient_accumulation_steps=)`). Default 1.
            learning_rate (float | None | Unset): `learning_rate`. Default 5e-5.
            adam_beta1 (float | None | Unset): `adam_beta1`. Default 0.9.
            adam_beta2 (float | None | Unset): `adam_beta2`. Default 0.999.
            adam_epsilon (float | None | Unset): `adam_epsilon`. Default 1e-8.
            weight_decay (float | None | Unset): `weight_decay`. Default 0.0.
            max_grad_norm (float | None | Unset): `max_grad_norm` (compared with `gradient_clipping`). Default 1.0.
            warmup_steps (float | None | Unset): `warmup_steps`: a count, or below 1 a fraction of the training steps
                (transformers 5;
                older `warmup_ratio` is read into it). Default 0.
            max_steps (int | None | Unset): `max_steps`; 0 or negative: train for `num_train_epochs`. Default -1.
            num_train_epochs (float | None | Unset): `num_train_epochs`. Default 3.
            train_samples (int | None | Unset): Training examples in the dataset (not a TrainingArguments field): with the
                batch sizes
                and the world size it gives the Trainer's `num_training_steps`.
            bf16 (bool | None | Unset): `bf16` (Accelerate: `--mixed_precision bf16`). Default false.
            fp16 (bool | None | Unset): `fp16` (Accelerate: `--mixed_precision fp16`). Default false.
            optim (None | str | Unset): `optim` (informational: the Trainer builds it only when the config has no
                optimizer).
            lr_scheduler_type (None | str | Unset): `lr_scheduler_type`: the Trainer builds it only when the config has no
                scheduler (a
                config scheduler of another shape is said: `launcher-scheduler-overridden`).
            hidden_size (int | None | Unset): The model's `hidden_size` (fills the bucket-size `"auto"` values). Unknown:
                4096 is
                assumed for checking, and the effective config says so.
     """

    per_device_train_batch_size: int | None | Unset = UNSET
    gradient_accumulation_steps: int | None | Unset = UNSET
    learning_rate: float | None | Unset = UNSET
    adam_beta1: float | None | Unset = UNSET
    adam_beta2: float | None | Unset = UNSET
    adam_epsilon: float | None | Unset = UNSET
    weight_decay: float | None | Unset = UNSET
    max_grad_norm: float | None | Unset = UNSET
    warmup_steps: float | None | Unset = UNSET
    max_steps: int | None | Unset = UNSET
    num_train_epochs: float | None | Unset = UNSET
    train_samples: int | None | Unset = UNSET
    bf16: bool | None | Unset = UNSET
    fp16: bool | None | Unset = UNSET
    optim: None | str | Unset = UNSET
    lr_scheduler_type: None | str | Unset = UNSET
    hidden_size: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        per_device_train_batch_size: int | None | Unset
        if isinstance(self.per_device_train_batch_size, Unset):
            per_device_train_batch_size = UNSET
        else:
            per_device_train_batch_size = self.per_device_train_batch_size

        gradient_accumulation_steps: int | None | Unset
        if isinstance(self.gradient_accumulation_steps, Unset):
            gradient_accumulation_steps = UNSET
        else:
            gradient_accumulation_steps = self.gradient_accumulation_steps

        learning_rate: float | None | Unset
        if isinstance(self.learning_rate, Unset):
            learning_rate = UNSET
        else:
            learning_rate = self.learning_rate

        adam_beta1: float | None | Unset
        if isinstance(self.adam_beta1, Unset):
            adam_beta1 = UNSET
        else:
            adam_beta1 = self.adam_beta1

        adam_beta2: float | None | Unset
        if isinstance(self.adam_beta2, Unset):
            adam_beta2 = UNSET
        else:
            adam_beta2 = self.adam_beta2

        adam_epsilon: float | None | Unset
        if isinstance(self.adam_epsilon, Unset):
            adam_epsilon = UNSET
        else:
            adam_epsilon = self.adam_epsilon

        weight_decay: float | None | Unset
        if isinstance(self.weight_decay, Unset):
            weight_decay = UNSET
        else:
            weight_decay = self.weight_decay

        max_grad_norm: float | None | Unset
        if isinstance(self.max_grad_norm, Unset):
            max_grad_norm = UNSET
        else:
            max_grad_norm = self.max_grad_norm

        warmup_steps: float | None | Unset
        if isinstance(self.warmup_steps, Unset):
            warmup_steps = UNSET
        else:
            warmup_steps = self.warmup_steps

        max_steps: int | None | Unset
        if isinstance(self.max_steps, Unset):
            max_steps = UNSET
        else:
            max_steps = self.max_steps

        num_train_epochs: float | None | Unset
        if isinstance(self.num_train_epochs, Unset):
            num_train_epochs = UNSET
        else:
            num_train_epochs = self.num_train_epochs

        train_samples: int | None | Unset
        if isinstance(self.train_samples, Unset):
            train_samples = UNSET
        else:
            train_samples = self.train_samples

        bf16: bool | None | Unset
        if isinstance(self.bf16, Unset):
            bf16 = UNSET
        else:
            bf16 = self.bf16

        fp16: bool | None | Unset
        if isinstance(self.fp16, Unset):
            fp16 = UNSET
        else:
            fp16 = self.fp16

        optim: None | str | Unset
        if isinstance(self.optim, Unset):
            optim = UNSET
        else:
            optim = self.optim

        lr_scheduler_type: None | str | Unset
        if isinstance(self.lr_scheduler_type, Unset):
            lr_scheduler_type = UNSET
        else:
            lr_scheduler_type = self.lr_scheduler_type

        hidden_size: int | None | Unset
        if isinstance(self.hidden_size, Unset):
            hidden_size = UNSET
        else:
            hidden_size = self.hidden_size


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if per_device_train_batch_size is not UNSET:
            field_dict["per_device_train_batch_size"] = per_device_train_batch_size
        if gradient_accumulation_steps is not UNSET:
            field_dict["gradient_accumulation_steps"] = gradient_accumulation_steps
        if learning_rate is not UNSET:
            field_dict["learning_rate"] = learning_rate
        if adam_beta1 is not UNSET:
            field_dict["adam_beta1"] = adam_beta1
        if adam_beta2 is not UNSET:
            field_dict["adam_beta2"] = adam_beta2
        if adam_epsilon is not UNSET:
            field_dict["adam_epsilon"] = adam_epsilon
        if weight_decay is not UNSET:
            field_dict["weight_decay"] = weight_decay
        if max_grad_norm is not UNSET:
            field_dict["max_grad_norm"] = max_grad_norm
        if warmup_steps is not UNSET:
            field_dict["warmup_steps"] = warmup_steps
        if max_steps is not UNSET:
            field_dict["max_steps"] = max_steps
        if num_train_epochs is not UNSET:
            field_dict["num_train_epochs"] = num_train_epochs
        if train_samples is not UNSET:
            field_dict["train_samples"] = train_samples
        if bf16 is not UNSET:
            field_dict["bf16"] = bf16
        if fp16 is not UNSET:
            field_dict["fp16"] = fp16
        if optim is not UNSET:
            field_dict["optim"] = optim
        if lr_scheduler_type is not UNSET:
            field_dict["lr_scheduler_type"] = lr_scheduler_type
        if hidden_size is not UNSET:
            field_dict["hidden_size"] = hidden_size

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_per_device_train_batch_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        per_device_train_batch_size = _parse_per_device_train_batch_size(d.pop("per_device_train_batch_size", UNSET))


        def _parse_gradient_accumulation_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gradient_accumulation_steps = _parse_gradient_accumulation_steps(d.pop("gradient_accumulation_steps", UNSET))


        def _parse_learning_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        learning_rate = _parse_learning_rate(d.pop("learning_rate", UNSET))


        def _parse_adam_beta1(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        adam_beta1 = _parse_adam_beta1(d.pop("adam_beta1", UNSET))


        def _parse_adam_beta2(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        adam_beta2 = _parse_adam_beta2(d.pop("adam_beta2", UNSET))


        def _parse_adam_epsilon(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        adam_epsilon = _parse_adam_epsilon(d.pop("adam_epsilon", UNSET))


        def _parse_weight_decay(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        weight_decay = _parse_weight_decay(d.pop("weight_decay", UNSET))


        def _parse_max_grad_norm(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_grad_norm = _parse_max_grad_norm(d.pop("max_grad_norm", UNSET))


        def _parse_warmup_steps(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        warmup_steps = _parse_warmup_steps(d.pop("warmup_steps", UNSET))


        def _parse_max_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_steps = _parse_max_steps(d.pop("max_steps", UNSET))


        def _parse_num_train_epochs(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        num_train_epochs = _parse_num_train_epochs(d.pop("num_train_epochs", UNSET))


        def _parse_train_samples(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        train_samples = _parse_train_samples(d.pop("train_samples", UNSET))


        def _parse_bf16(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        bf16 = _parse_bf16(d.pop("bf16", UNSET))


        def _parse_fp16(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        fp16 = _parse_fp16(d.pop("fp16", UNSET))


        def _parse_optim(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        optim = _parse_optim(d.pop("optim", UNSET))


        def _parse_lr_scheduler_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        lr_scheduler_type = _parse_lr_scheduler_type(d.pop("lr_scheduler_type", UNSET))


        def _parse_hidden_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        hidden_size = _parse_hidden_size(d.pop("hidden_size", UNSET))


        trainer_args = cls(
            per_device_train_batch_size=per_device_train_batch_size,
            gradient_accumulation_steps=gradient_accumulation_steps,
            learning_rate=learning_rate,
            adam_beta1=adam_beta1,
            adam_beta2=adam_beta2,
            adam_epsilon=adam_epsilon,
            weight_decay=weight_decay,
            max_grad_norm=max_grad_norm,
            warmup_steps=warmup_steps,
            max_steps=max_steps,
            num_train_epochs=num_train_epochs,
            train_samples=train_samples,
            bf16=bf16,
            fp16=fp16,
            optim=optim,
            lr_scheduler_type=lr_scheduler_type,
            hidden_size=hidden_size,
        )

        return trainer_args

