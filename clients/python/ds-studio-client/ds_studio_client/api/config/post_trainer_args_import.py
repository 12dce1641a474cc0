from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.imported import Imported
from ...models.trainer_args_import import TrainerArgsImport
from typing import cast



def _get_kwargs(
    *,
    body: TrainerArgsImport,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/trainer-args/import",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Imported:
    if response.status_code == 200:
        response_200 = Imported.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Imported]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TrainerArgsImport,

) -> Response[ErrorBody | Imported]:
    """ Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-
    Factory or axolotl YAML, an accelerate config YAML or a command line

    Args:
        body (TrainerArgsImport): `POST /api/v1/trainer-args/import`: a training file's text
            (LLaMA-Factory or axolotl YAML,
            `accelerate config` YAML, or a command line).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Imported]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: TrainerArgsImport,

) -> ErrorBody | Imported | None:
    """ Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-
    Factory or axolotl YAML, an accelerate config YAML or a command line

    Args:
        body (TrainerArgsImport): `POST /api/v1/trainer-args/import`: a training file's text
            (LLaMA-Factory or axolotl YAML,
            `accelerate config` YAML, or a command line).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Imported
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TrainerArgsImport,

) -> Response[ErrorBody | Imported]:
    """ Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-
    Factory or axolotl YAML, an accelerate config YAML or a command line

    Args:
        body (TrainerArgsImport): `POST /api/v1/trainer-args/import`: a training file's text
            (LLaMA-Factory or axolotl YAML,
            `accelerate config` YAML, or a command line).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Imported]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: TrainerArgsImport,

) -> ErrorBody | Imported | None:
    """ Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-
    Factory or axolotl YAML, an accelerate config YAML or a command line

    Args:
        body (TrainerArgsImport): `POST /api/v1/trainer-args/import`: a training file's text
            (LLaMA-Factory or axolotl YAML,
            `accelerate config` YAML, or a command line).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Imported
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
