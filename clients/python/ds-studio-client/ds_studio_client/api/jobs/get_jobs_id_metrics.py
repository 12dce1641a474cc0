from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.metric_series import MetricSeries
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: int,
    *,
    name: str | Unset = UNSET,
    max_points: int | Unset = UNSET,
    until: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["name"] = name

    params["max_points"] = max_points

    params["until"] = until


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{id}/metrics".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[MetricSeries]:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = MetricSeries.from_dict(response_200_item_data)



            response_200.append(response_200_item)

        return response_200

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

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | list[MetricSeries]]:
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
    name: str | Unset = UNSET,
    max_points: int | Unset = UNSET,
    until: int | Unset = UNSET,

) -> Response[ErrorBody | list[MetricSeries]]:
    """ A job's metric series

    Args:
        id (int):
        name (str | Unset):
        max_points (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[MetricSeries]]
     """


    kwargs = _get_kwargs(
        id=id,
name=name,
max_points=max_points,
until=until,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    name: str | Unset = UNSET,
    max_points: int | Unset = UNSET,
    until: int | Unset = UNSET,

) -> ErrorBody | list[MetricSeries] | None:
    """ A job's metric series

    Args:
        id (int):
        name (str | Unset):
        max_points (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[MetricSeries]
     """


    return sync_detailed(
        id=id,
client=client,
name=name,
max_points=max_points,
until=until,

    ).parsed

async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    name: str | Unset = UNSET,
    max_points: int | Unset = UNSET,
    until: int | Unset = UNSET,

) -> Response[ErrorBody | list[MetricSeries]]:
    """ A job's metric series

    Args:
        id (int):
        name (str | Unset):
        max_points (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[MetricSeries]]
     """


    kwargs = _get_kwargs(
        id=id,
name=name,
max_points=max_points,
until=until,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    name: str | Unset = UNSET,
    max_points: int | Unset = UNSET,
    until: int | Unset = UNSET,

) -> ErrorBody | list[MetricSeries] | None:
    """ A job's metric series

    Args:
        id (int):
        name (str | Unset):
        max_points (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[MetricSeries]
     """


    return (await asyncio_detailed(
        id=id,
client=client,
name=name,
max_points=max_points,
until=until,

    )).parsed
