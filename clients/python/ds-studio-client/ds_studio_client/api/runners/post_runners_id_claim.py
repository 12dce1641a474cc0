from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.claimed_job import ClaimedJob
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: int,
    *,
    wait_s: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["wait_s"] = wait_s


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/runners/{id}/claim".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ClaimedJob | ErrorBody:
    if response.status_code == 200:
        response_200 = ClaimedJob.from_dict(response.json())



        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ClaimedJob | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_s: int | Unset = UNSET,

) -> Response[Any | ClaimedJob | ErrorBody]:
    """ Claim the oldest queued job this runner can run (long poll)

    Args:
        id (int):
        wait_s (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ClaimedJob | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
wait_s=wait_s,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_s: int | Unset = UNSET,

) -> Any | ClaimedJob | ErrorBody | None:
    """ Claim the oldest queued job this runner can run (long poll)

    Args:
        id (int):
        wait_s (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ClaimedJob | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
wait_s=wait_s,

    ).parsed

async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_s: int | Unset = UNSET,

) -> Response[Any | ClaimedJob | ErrorBody]:
    """ Claim the oldest queued job this runner can run (long poll)

    Args:
        id (int):
        wait_s (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ClaimedJob | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
wait_s=wait_s,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    wait_s: int | Unset = UNSET,

) -> Any | ClaimedJob | ErrorBody | None:
    """ Claim the oldest queued job this runner can run (long poll)

    Args:
        id (int):
        wait_s (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ClaimedJob | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
wait_s=wait_s,

    )).parsed
