from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.estimate_request import EstimateRequest
from ...models.estimate_response import EstimateResponse
from typing import cast



def _get_kwargs(
    *,
    body: EstimateRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/estimate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | EstimateResponse:
    if response.status_code == 200:
        response_200 = EstimateResponse.from_dict(response.json())



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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | EstimateResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EstimateRequest,

) -> Response[ErrorBody | EstimateResponse]:
    """ The predicted peak memory per GPU of a config training a model (a catalog name or a config.json;
    full fine-tuning or LoRA) on gpus_per_node x nodes, part by part; whether it fits gpu_memory_bytes
    and each online runner the caller may use, and the configs that would (anonymous callers: no
    runners, rate-limited)

    Args:
        body (EstimateRequest): What to estimate: a DeepSpeed config, the model it trains, and
            where. Example: {'config': {'train_micro_batch_size_per_gpu': 1,
            'gradient_accumulation_steps': 8, 'bf16': {'enabled': True}, 'zero_optimization':
            {'stage': 2}}, 'model': {'name': 'qwen2.5-7b', 'seq_len': 4096, 'lora': {'rank': 16}},
            'gpus_per_node': 8, 'gpu_memory_bytes': 85899345920}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EstimateResponse]
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
    body: EstimateRequest,

) -> ErrorBody | EstimateResponse | None:
    """ The predicted peak memory per GPU of a config training a model (a catalog name or a config.json;
    full fine-tuning or LoRA) on gpus_per_node x nodes, part by part; whether it fits gpu_memory_bytes
    and each online runner the caller may use, and the configs that would (anonymous callers: no
    runners, rate-limited)

    Args:
        body (EstimateRequest): What to estimate: a DeepSpeed config, the model it trains, and
            where. Example: {'config': {'train_micro_batch_size_per_gpu': 1,
            'gradient_accumulation_steps': 8, 'bf16': {'enabled': True}, 'zero_optimization':
            {'stage': 2}}, 'model': {'name': 'qwen2.5-7b', 'seq_len': 4096, 'lora': {'rank': 16}},
            'gpus_per_node': 8, 'gpu_memory_bytes': 85899345920}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EstimateResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EstimateRequest,

) -> Response[ErrorBody | EstimateResponse]:
    """ The predicted peak memory per GPU of a config training a model (a catalog name or a config.json;
    full fine-tuning or LoRA) on gpus_per_node x nodes, part by part; whether it fits gpu_memory_bytes
    and each online runner the caller may use, and the configs that would (anonymous callers: no
    runners, rate-limited)

    Args:
        body (EstimateRequest): What to estimate: a DeepSpeed config, the model it trains, and
            where. Example: {'config': {'train_micro_batch_size_per_gpu': 1,
            'gradient_accumulation_steps': 8, 'bf16': {'enabled': True}, 'zero_optimization':
            {'stage': 2}}, 'model': {'name': 'qwen2.5-7b', 'seq_len': 4096, 'lora': {'rank': 16}},
            'gpus_per_node': 8, 'gpu_memory_bytes': 85899345920}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EstimateResponse]
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
    body: EstimateRequest,

) -> ErrorBody | EstimateResponse | None:
    """ The predicted peak memory per GPU of a config training a model (a catalog name or a config.json;
    full fine-tuning or LoRA) on gpus_per_node x nodes, part by part; whether it fits gpu_memory_bytes
    and each online runner the caller may use, and the configs that would (anonymous callers: no
    runners, rate-limited)

    Args:
        body (EstimateRequest): What to estimate: a DeepSpeed config, the model it trains, and
            where. Example: {'config': {'train_micro_batch_size_per_gpu': 1,
            'gradient_accumulation_steps': 8, 'bf16': {'enabled': True}, 'zero_optimization':
            {'stage': 2}}, 'model': {'name': 'qwen2.5-7b', 'seq_len': 4096, 'lora': {'rank': 16}},
            'gpus_per_node': 8, 'gpu_memory_bytes': 85899345920}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EstimateResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
