from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.validate_request import ValidateRequest
from ...models.validate_response import ValidateResponse
from typing import cast



def _get_kwargs(
    *,
    body: ValidateRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/validate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ValidateResponse:
    if response.status_code == 200:
        response_200 = ValidateResponse.from_dict(response.json())



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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ValidateResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ValidateRequest,

) -> Response[ErrorBody | ValidateResponse]:
    """ Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8)
    would, with warnings and hints

    Args:
        body (ValidateRequest): `POST /api/v1/validate`: the config as exactly one of `config`
            (any JSON value) and
            `config_text` (JSON or hjson, as written); both or neither is a 400. Example: {'config':
            {'train_batch_size': 8, 'train_micro_batch_size_per_gpu': 1, 'zero_optimization':
            {'stage': 2}}, 'context': {'world_size': 8}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ValidateResponse]
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
    body: ValidateRequest,

) -> ErrorBody | ValidateResponse | None:
    """ Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8)
    would, with warnings and hints

    Args:
        body (ValidateRequest): `POST /api/v1/validate`: the config as exactly one of `config`
            (any JSON value) and
            `config_text` (JSON or hjson, as written); both or neither is a 400. Example: {'config':
            {'train_batch_size': 8, 'train_micro_batch_size_per_gpu': 1, 'zero_optimization':
            {'stage': 2}}, 'context': {'world_size': 8}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ValidateResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ValidateRequest,

) -> Response[ErrorBody | ValidateResponse]:
    """ Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8)
    would, with warnings and hints

    Args:
        body (ValidateRequest): `POST /api/v1/validate`: the config as exactly one of `config`
            (any JSON value) and
            `config_text` (JSON or hjson, as written); both or neither is a 400. Example: {'config':
            {'train_batch_size': 8, 'train_micro_batch_size_per_gpu': 1, 'zero_optimization':
            {'stage': 2}}, 'context': {'world_size': 8}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ValidateResponse]
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
    body: ValidateRequest,

) -> ErrorBody | ValidateResponse | None:
    """ Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8)
    would, with warnings and hints

    Args:
        body (ValidateRequest): `POST /api/v1/validate`: the config as exactly one of `config`
            (any JSON value) and
            `config_text` (JSON or hjson, as written); both or neither is a 400. Example: {'config':
            {'train_batch_size': 8, 'train_micro_batch_size_per_gpu': 1, 'zero_optimization':
            {'stage': 2}}, 'context': {'world_size': 8}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ValidateResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
