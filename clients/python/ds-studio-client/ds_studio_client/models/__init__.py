""" Contains all the data models used in inputs/outputs """

from .api_token import ApiToken
from .architecture import Architecture
from .attention import Attention
from .axis import Axis
from .capacity import Capacity
from .catalog_model import CatalogModel
from .catalog_model_config import CatalogModelConfig
from .change import Change
from .claimed_job import ClaimedJob
from .claimed_job_secret_env import ClaimedJobSecretEnv
from .config_rejected_details import ConfigRejectedDetails
from .context import Context
from .diagnostic import Diagnostic
from .diagnostic_fix_type_0_item import DiagnosticFixType0Item
from .diff import Diff
from .does_not_fit import DoesNotFit
from .error_body import ErrorBody
from .error_detail import ErrorDetail
from .estimate import Estimate
from .estimate_request import EstimateRequest
from .estimate_request_config import EstimateRequestConfig
from .estimate_response import EstimateResponse
from .estimated_model import EstimatedModel
from .event_ack import EventAck
from .event_batch import EventBatch
from .experts import Experts
from .failure_reason import FailureReason
from .family import Family
from .filled_value import FilledValue
from .fit_change import FitChange
from .fit_verdict import FitVerdict
from .fitted import Fitted
from .fork_origin import ForkOrigin
from .fork_request import ForkRequest
from .get_jobs_offload import GetJobsOffload
from .get_jobs_precision import GetJobsPrecision
from .get_schema_release_keywords import GetSchemaReleaseKeywords
from .get_schema_release_lang import GetSchemaReleaseLang
from .get_schema_release_launcher import GetSchemaReleaseLauncher
from .get_schema_release_response_200 import GetSchemaReleaseResponse200
from .get_schema_response_200 import GetSchemaResponse200
from .gpu_device import GpuDevice
from .heartbeat import Heartbeat
from .heartbeat_reply import HeartbeatReply
from .imported import Imported
from .job import Job
from .job_create import JobCreate
from .job_create_env_type_0 import JobCreateEnvType0
from .job_create_secret_env_type_0 import JobCreateSecretEnvType0
from .job_env import JobEnv
from .job_page import JobPage
from .job_state import JobState
from .job_state_update import JobStateUpdate
from .launcher import Launcher
from .log_line import LogLine
from .login_request import LoginRequest
from .lora import Lora
from .me import Me
from .member import Member
from .member_add import MemberAdd
from .member_put import MemberPut
from .metric_point import MetricPoint
from .metric_series import MetricSeries
from .mlp import Mlp
from .model_spec import ModelSpec
from .norm import Norm
from .optimizer_kind import OptimizerKind
from .params import Params
from .part import Part
from .phase import Phase
from .piece import Piece
from .point_state import PointState
from .precision import Precision
from .preflight import Preflight
from .release_info import ReleaseInfo
from .releases_response import ReleasesResponse
from .role import Role
from .run_facts import RunFacts
from .run_labels import RunLabels
from .run_summary import RunSummary
from .runner import Runner
from .runner_devices import RunnerDevices
from .runner_event_type_0 import RunnerEventType0
from .runner_event_type_0_kind import RunnerEventType0Kind
from .runner_event_type_1 import RunnerEventType1
from .runner_event_type_1_kind import RunnerEventType1Kind
from .runner_register import RunnerRegister
from .runner_token import RunnerToken
from .runner_token_create import RunnerTokenCreate
from .runner_token_created import RunnerTokenCreated
from .session_state import SessionState
from .setup import Setup
from .severity import Severity
from .share import Share
from .share_create import ShareCreate
from .share_created import ShareCreated
from .shared_view import SharedView
from .signin_link import SigninLink
from .signin_link_create import SigninLinkCreate
from .source import Source
from .suggestion import Suggestion
from .suggestion_kind import SuggestionKind
from .sweep import Sweep
from .sweep_create import SweepCreate
from .sweep_point import SweepPoint
from .sweep_point_values import SweepPointValues
from .sweep_save_best import SweepSaveBest
from .sweep_state import SweepState
from .team import Team
from .team_create import TeamCreate
from .team_update import TeamUpdate
from .template import Template
from .template_create import TemplateCreate
from .template_create_config import TemplateCreateConfig
from .template_page import TemplatePage
from .template_update import TemplateUpdate
from .text import Text
from .text_edit import TextEdit
from .token_create import TokenCreate
from .token_created import TokenCreated
from .trainer_args import TrainerArgs
from .trainer_args_import import TrainerArgsImport
from .user import User
from .user_create import UserCreate
from .user_model import UserModel
from .user_model_config_type_0 import UserModelConfigType0
from .user_page import UserPage
from .user_update import UserUpdate
from .validate_request import ValidateRequest
from .validate_request_config import ValidateRequestConfig
from .validate_response import ValidateResponse
from .verdict import Verdict
from .version import Version
from .version_conflict_details import VersionConflictDetails
from .version_create import VersionCreate
from .version_create_config import VersionCreateConfig
from .version_ref import VersionRef
from .version_summary import VersionSummary
from .version_summary_page import VersionSummaryPage
from .workload import Workload

__all__ = (
    "ApiToken",
    "Architecture",
    "Attention",
    "Axis",
    "Capacity",
    "CatalogModel",
    "CatalogModelConfig",
    "Change",
    "ClaimedJob",
    "ClaimedJobSecretEnv",
    "ConfigRejectedDetails",
    "Context",
    "Diagnostic",
    "DiagnosticFixType0Item",
    "Diff",
    "DoesNotFit",
    "ErrorBody",
    "ErrorDetail",
    "Estimate",
    "EstimatedModel",
    "EstimateRequest",
    "EstimateRequestConfig",
    "EstimateResponse",
    "EventAck",
    "EventBatch",
    "Experts",
    "FailureReason",
    "Family",
    "FilledValue",
    "FitChange",
    "Fitted",
    "FitVerdict",
    "ForkOrigin",
    "ForkRequest",
    "GetJobsOffload",
    "GetJobsPrecision",
    "GetSchemaReleaseKeywords",
    "GetSchemaReleaseLang",
    "GetSchemaReleaseLauncher",
    "GetSchemaReleaseResponse200",
    "GetSchemaResponse200",
    "GpuDevice",
    "Heartbeat",
    "HeartbeatReply",
    "Imported",
    "Job",
    "JobCreate",
    "JobCreateEnvType0",
    "JobCreateSecretEnvType0",
    "JobEnv",
    "JobPage",
    "JobState",
    "JobStateUpdate",
    "Launcher",
    "LoginRequest",
    "LogLine",
    "Lora",
    "Me",
    "Member",
    "MemberAdd",
    "MemberPut",
    "MetricPoint",
    "MetricSeries",
    "Mlp",
    "ModelSpec",
    "Norm",
    "OptimizerKind",
    "Params",
    "Part",
    "Phase",
    "Piece",
    "PointState",
    "Precision",
    "Preflight",
    "ReleaseInfo",
    "ReleasesResponse",
    "Role",
    "RunFacts",
    "RunLabels",
    "Runner",
    "RunnerDevices",
    "RunnerEventType0",
    "RunnerEventType0Kind",
    "RunnerEventType1",
    "RunnerEventType1Kind",
    "RunnerRegister",
    "RunnerToken",
    "RunnerTokenCreate",
    "RunnerTokenCreated",
    "RunSummary",
    "SessionState",
    "Setup",
    "Severity",
    "Share",
    "ShareCreate",
    "ShareCreated",
    "SharedView",
    "SigninLink",
    "SigninLinkCreate",
    "Source",
    "Suggestion",
    "SuggestionKind",
    "Sweep",
    "SweepCreate",
    "SweepPoint",
    "SweepPointValues",
    "SweepSaveBest",
    "SweepState",
    "Team",
    "TeamCreate",
    "TeamUpdate",
    "Template",
    "TemplateCreate",
    "TemplateCreateConfig",
    "TemplatePage",
    "TemplateUpdate",
    "Text",
    "TextEdit",
    "TokenCreate",
    "TokenCreated",
    "TrainerArgs",
    "TrainerArgsImport",
    "User",
    "UserCreate",
    "UserModel",
    "UserModelConfigType0",
    "UserPage",
    "UserUpdate",
    "ValidateRequest",
    "ValidateRequestConfig",
    "ValidateResponse",
    "Verdict",
    "Version",
    "VersionConflictDetails",
    "VersionCreate",
    "VersionCreateConfig",
    "VersionRef",
    "VersionSummary",
    "VersionSummaryPage",
    "Workload",
)
